package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rules {@link DeliverySteps} applies to what a RECEIVE returned and to how its transaction ended. */
class DeliveryRulesTest {

    @Test
    void aDeliveryCountsAsCommittedOnlyWhenTheBeanReturnedAndNoRollbackWasSeen() {
        assertTrue(DeliverySteps.committed(true, TransactionOutcome.COMMITTED, true));
        assertFalse(DeliverySteps.committed(true, TransactionOutcome.ROLLED_BACK, true));
        assertFalse(DeliverySteps.committed(true, TransactionOutcome.NOT_SEEN, true),
                "the reader's transaction holds the work: an end not seen is not a commit");
        assertTrue(DeliverySteps.committed(true, TransactionOutcome.NOT_SEEN, false),
                "the RECEIVE committed before the call, and the bean's transaction left the reader's branch out");
        assertFalse(DeliverySteps.committed(true, TransactionOutcome.ROLLED_BACK, false));
        assertFalse(DeliverySteps.committed(false, TransactionOutcome.COMMITTED, true), "the bean threw");
    }

    @Test
    void aFullBatchWakesAnotherReaderUnlessItTookTheLastMessagesAndCommitted() {
        assertTrue(DeliverySteps.othersMayFindMore(10, 10, false, true), "a full batch: the group may hold more");
        assertFalse(DeliverySteps.othersMayFindMore(9, 10, false, true), "less than a full batch");
        assertFalse(DeliverySteps.othersMayFindMore(10, 10, true, true), "took the last, committed");
        assertTrue(DeliverySteps.othersMayFindMore(10, 10, true, false), "rolled back: the messages are back");
    }
}
