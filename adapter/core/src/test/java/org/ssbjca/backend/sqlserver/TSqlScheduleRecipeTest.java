package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;

/**
 * The T-SQL recipe of docs/guide/delayed-sends.md against what sql/sqlserver/install.sql installs: the call names
 * every parameter of {@code ssb.schedule_send} and no other, and the cancel deletes by the table's key.
 */
class TSqlScheduleRecipeTest {

    @Test
    void theRecipeNamesEveryParameterOfTheInstalledProcedureAndCancelsByTheKey() {
        List<String> recipes = Docs.codeBlocks("docs/guide/delayed-sends.md", "## How it is stored", "sql");
        String recipe = recipes.get(0);
        assertTrue(recipe.contains("EXEC ssb.schedule_send "), recipe);
        Set<String> declared = RecipeProcedures.parametersOf("ssb.schedule_send");
        assertEquals(Set.of("conversation_handle", "message_type_name", "message_body", "due_at", "delay_ms",
                "scheduled_id"), declared);
        assertEquals(declared, RecipeProcedures.named(recipe), recipe);
        assertTrue(recipe.contains("@scheduled_id = @id OUTPUT"), recipe);
        assertTrue(recipe.contains("DELETE FROM ssb.scheduled_send WHERE scheduled_id = @id;"), recipe);
        String install = SqlScript.load("org/ssbjca/sql/sqlserver/install.sql");
        assertTrue(install.contains("scheduled_id UNIQUEIDENTIFIER NOT NULL CONSTRAINT scheduled_send_pk PRIMARY KEY"),
                "the table's key is the id the recipe deletes by");
    }
}
