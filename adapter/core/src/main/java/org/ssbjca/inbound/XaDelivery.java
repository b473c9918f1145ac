package org.ssbjca.inbound;

import java.util.List;
import org.ssbjca.api.BrokerMessage;

/**
 * A transacted bean: RECEIVE and the bean's work in the container's transaction, the reader's connection one XA
 * branch of it (exactly once).
 */
final class XaDelivery implements DeliveryMode {

    @Override
    public void deliverOnce(DeliverySteps steps) throws Exception {
        Batch batch = null;
        boolean ok = true;
        long start = 0;
        Throwable failure = null;
        steps.beforeDelivery();
        try {
            List<BrokerMessage> messages = steps.receive();
            if (!messages.isEmpty()) {
                start = System.nanoTime();
                batch = steps.prepare(messages);
                ok = steps.deliver(batch);
                if (!ok) {
                    // The reader's branch votes to roll back itself: the container rolls back when the bean throws,
                    // but a call that fails before it reaches the bean (WildFly while the bean's component stops)
                    // leaves the transaction active, and afterDelivery would commit a RECEIVE nobody handled.
                    steps.setRollbackOnly();
                    steps.recordFailures(batch);
                }
            }
        } catch (Exception | Error e) {
            // Whatever failed (the RECEIVE, the dead-letter insert of prepare, deliver's bookkeeping after the bean
            // returned), the reader's branch votes to roll back: afterDelivery would otherwise commit a RECEIVE whose
            // messages were not all handled (on H2 a failed statement does not doom its transaction).
            steps.setRollbackOnly();
            failure = e;
            throw e;
        } finally {
            try {
                steps.afterDelivery();
            } catch (Exception | Error e) {
                // the turn's own failure (a RECEIVE on a lost connection) is what the reader reports, not the
                // rollback it made afterDelivery fail with
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            } finally {
                steps.finish(batch, ok, start, steps.takeOutcome());
            }
        }
    }

    @Override
    public String describe() {
        return "XA transacted";
    }
}
