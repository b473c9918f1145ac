package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;

/**
 * The T-SQL senders' recipe of docs/guide/tracing.md against the procedure sql/sqlserver/install.sql installs: the
 * recipe names every parameter of {@code ssb.send_traced} and no other, and its context is a W3C traceparent. The
 * conformance suite runs the recipe as written on SQL Server ({@code TraceContextConformanceTest}).
 */
class TSqlSenderRecipeTest {

    private static List<String> recipes() {
        return Docs.codeBlocks("docs/guide/tracing.md", "## T-SQL senders", "sql");
    }

    @Test
    void theRecipeNamesEveryParameterOfTheInstalledProcedure() {
        String recipe = recipes().get(0);
        assertTrue(recipe.startsWith("EXEC ssb.send_traced "), recipe);
        Set<String> named = RecipeProcedures.named(recipe);
        Set<String> declared = RecipeProcedures.parametersOf("ssb.send_traced");
        assertEquals(Set.of("conversation_handle", "message_type_name", "message_body", "trace_context"), declared);
        assertEquals(declared, named, recipe);
        assertTrue(recipe.matches("(?s).*@trace_context = '00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]';\\s*"), recipe);
    }

    @Test
    void thePurgeDeletesOnlyRowsOfConversationsWithoutEndpoints() {
        assertEquals("""
                DELETE t FROM ssb.message_trace AS t
                WHERE NOT EXISTS (SELECT 1 FROM sys.conversation_endpoints AS e \
                WHERE e.conversation_id = t.conversation_id);
                """, recipes().get(1));
    }
}
