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
}
