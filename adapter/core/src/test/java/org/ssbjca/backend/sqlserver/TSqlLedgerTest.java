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
}
