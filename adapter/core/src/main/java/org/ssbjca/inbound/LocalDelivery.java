package org.ssbjca.inbound;

import org.ssbjca.backend.Received;

/**
 * A bean whose listener method is not transacted: a local transaction of the reader's connection around RECEIVE and
 * the bean's call, committed when the bean returns, which the bean's verbs join (at least once).
 */
final class LocalDelivery implements DeliveryMode {

    @Override
    public void deliverOnce(DeliverySteps steps) throws Exception {
        steps.beginLocal();
        Batch batch = null;
        boolean ok = true;
        long start = 0;
        Throwable failure = null;
        try {
            Received messages = steps.receive();
            if (!messages.isEmpty()) {
                start = System.nanoTime();
                batch = steps.prepare(messages);
                steps.beforeDelivery();
                try {
                    ok = steps.deliver(batch);
                } finally {
                    steps.afterDelivery();
                }
                if (!ok) {
                    steps.recordFailures(batch);
                }
            }
        } catch (Exception | Error e) {
            ok = false;
            failure = e;
            throw e;
        } finally {
            // the turn's own failure (a RECEIVE on a lost connection) is what the reader reports, not the end of the
            // transaction on the same dead connection nor the count of the failed delivery after it
            Throwable thrown = failure;
            try {
                steps.endLocal(ok);
            } catch (Exception | Error e) {
                thrown = TurnFailure.keep(thrown, e);
            }
            try {
                steps.finish(batch, ok, start, steps.takeOutcome());
            } catch (Exception | Error e) {
                thrown = TurnFailure.keep(thrown, e);
            }
            if (thrown != failure) {
                TurnFailure.rethrow(thrown);
            }
        }
    }

    @Override
    public String describe() {
        return "local-transaction";
    }
}
