package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Golden statements of the adapter's bookkeeping on SQL Server. */
class TSqlLedgerTest {

    private static final String FORGET_ATTEMPTS =
            "\nDELETE FROM ssb.delivery_attempt WHERE conversation_handle = @handle;";

    /**
     * Ending this side deletes the conversation's messages from the queue (END CONVERSATION, also WITH CLEANUP), so the
     * same batch forgets their failed deliveries: left behind, they would keep the readers looking up attempts.
     */
    @Test
    void endingAConversationForgetsTheFailedDeliveriesOfItsMessages() {
        assertEquals(TSql.endConversation(false) + FORGET_ATTEMPTS, TSqlLedger.endConversation(false));
        assertEquals(TSql.endConversation(true) + FORGET_ATTEMPTS, TSqlLedger.endConversation(true));
        assertEquals(TSql.END_CONVERSATION_WITH_CLEANUP + FORGET_ATTEMPTS,
                TSqlLedger.END_CONVERSATION_WITH_CLEANUP);
    }

    /**
     * Issue 15: with failed-delivery rows in the queue, a batch's attempts are read, and forgotten with its groups'
     * holds, in one statement each whatever the batch's size: the keys as one XML value shredded by nodes().
     */
    @Test
    void aBatchsAttemptsAreReadAndForgottenInOneStatementEach() {
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @keys XML = ?;
                SELECT a.conversation_handle, a.message_sequence_number, a.attempts
                FROM @keys.nodes('/k') AS t(k)
                JOIN ssb.delivery_attempt AS a ON a.conversation_handle = t.k.value('@h', 'UNIQUEIDENTIFIER')
                    AND a.message_sequence_number = t.k.value('@s', 'BIGINT');""", TSqlLedger.ATTEMPTS_OF);
        assertEquals("""
                SET NOCOUNT ON;
                DECLARE @keys XML = ?;
                DECLARE @groups XML = ?;
                DECLARE @k TABLE (h UNIQUEIDENTIFIER NOT NULL, s BIGINT NOT NULL, PRIMARY KEY (h, s));
                DECLARE @g TABLE (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY);
                INSERT INTO @k (h, s) SELECT DISTINCT t.k.value('@h', 'UNIQUEIDENTIFIER'), t.k.value('@s', 'BIGINT')
                FROM @keys.nodes('/k') AS t(k);
                INSERT INTO @g (id) SELECT DISTINCT t.g.value('@id', 'UNIQUEIDENTIFIER') FROM @groups.nodes('/g') AS t(g);
                DELETE a FROM @k AS k
                JOIN ssb.delivery_attempt AS a WITH (FORCESEEK) ON a.conversation_handle = k.h AND a.message_sequence_number = k.s;
                DELETE h FROM @g AS g
                JOIN ssb.conversation_hold AS h WITH (FORCESEEK) ON h.conversation_group_id = g.id;""",
                TSqlLedger.CLEAR_ATTEMPTS);
    }

    /**
     * The operator's search of dead letters: LIKE with an escape character on the text columns, CHARINDEX over the
     * varbinary(max) body with the text's bytes (Microsoft's CHARINDEX page: bigint over varbinary(max), at most 8,000
     * to find), READPAST as the listing; T-SQL's own wildcard {@code [} escaped too.
     */
    @Test
    void deadLettersAreSearchedByLikeOnTheTextColumnsAndCharindexOnTheBody() {
        assertEquals("""
                SET NOCOUNT ON;
                SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
                SELECT TOP (?) dead_letter_id, queue_name, conversation_group_id, conversation_handle,\
                 conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name,\
                 message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id\
                 FROM ssb.dead_letter WITH (READCOMMITTEDLOCK, READPAST) WHERE queue_name = ? AND dead_letter_id > ?\
                 AND (last_error LIKE ? ESCAPE '!' OR service_name LIKE ? ESCAPE '!'\
                 OR message_type_name LIKE ? ESCAPE '!'\
                 OR CHARINDEX(CAST(? AS VARBINARY(8000)), message_body) > 0) ORDER BY dead_letter_id;""",
                TSqlLedger.findDeadLetters(true, true));
        assertEquals(TSqlLedger.DEAD_LETTERS.replace("message_body,", "CAST(NULL AS VARBINARY(MAX)) AS message_body,"),
                TSqlLedger.findDeadLetters(false, false));
        assertEquals("%100!% ![x] a!_b!!%", TSqlLedger.containing("100% [x] a_b!"));
    }
}
