package org.ssbjca.inbound;

import java.util.List;
import org.ssbjca.backend.DeadLetter;

/**
 * An operator's redelivery of a dead letter: the letter is taken out of the dead-letter table and delivered in one
 * transaction, the container's for a transacted bean, else a local one as {@link LocalDelivery} has. A bean that
 * fails leaves the letter where it was.
 */
final class DeadLetterRedelivery {

    private DeadLetterRedelivery() {
    }

    /**
     * @param steps the reader's connection and endpoint
     * @param deadLetterId the letter
     * @return whether the letter was there and its delivery committed, by the rule every delivery is counted by
     *         ({@link DeliverySteps#committed}): what the operator is told is what the counters say
     * @throws Exception as {@link DeliveryMode#deliverOnce}
     */
    static boolean run(DeliverySteps steps, long deadLetterId) throws Exception {
        boolean local = !steps.transacted();
        if (local) {
            steps.beginLocal();
        }
        Batch batch = null;
        boolean ok = true;
        boolean committed = false;
        long start = System.nanoTime();
        steps.beforeDelivery();
        try {
            DeadLetter letter = steps.takeDeadLetter(deadLetterId);
            if (letter != null) {
                batch = Batch.forBean(List.of(letter.message()));
                steps.metrics().redelivered.increment();
                ok = steps.deliver(batch);
            }
        } catch (Exception | Error e) {
            ok = false;
            throw e;
        } finally {
            if (!ok && !local) {
                steps.setRollbackOnly(); // as XaDelivery: the dead letter stays if the call failed
            }
            try {
                steps.afterDelivery();
            } finally {
                if (local) {
                    steps.endLocal(ok);
                }
                committed = batch != null && DeliverySteps.committed(ok, steps.takeOutcome(), true);
                if (batch != null) {
                    steps.count(batch, committed, start);
                }
            }
        }
        return committed;
    }
}
