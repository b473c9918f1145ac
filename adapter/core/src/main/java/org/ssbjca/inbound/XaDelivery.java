package org.ssbjca.inbound;

import java.time.Duration;
import org.ssbjca.backend.Received;
import org.ssbjca.support.AdapterLog;

/**
 * A transacted bean: RECEIVE and the bean's work in the container's transaction, the reader's connection one XA
 * branch of it (exactly once). The RECEIVE's wait is bounded by that transaction's timeout ({@link #receiveWait}).
 */
final class XaDelivery implements DeliveryMode {

    private static final AdapterLog LOG = AdapterLog.of(XaDelivery.class);
    /** {@code SSBJCA0017}'s words for a transaction manager's timeout, and for the activation's cap of it. */
    private static final String MANAGERS = "the transaction manager's: WildFly's /subsystem=transactions"
            + " default-timeout";
    private static final String MANAGERS_FIX = "raise default-timeout to at least twice waitTimeout (jboss-cli:"
            + " /subsystem=transactions:write-attribute(name=default-timeout, value=<seconds>))";
    private static final String CAP = "the activation's transactionTimeout, which SQL Server applies to each"
            + " delivery's XA branch before the transaction manager's timeout";
    private static final String CAP_FIX = "raise the activation's transactionTimeout to at least twice waitTimeout"
            + " (in seconds), or remove it";

    /**
     * Returns the longest a RECEIVE may wait in it: half the timeout, leaving the other half to the delivery of what it
     * takes at the end of its wait, and to the commit.
     *
     * @param transactionTimeoutSeconds a delivery transaction's timeout, over 0
     */
    static long longestWaitMillis(int transactionTimeoutSeconds) {
        return transactionTimeoutSeconds * 500L;
    }

    /**
     * The wait of this turn's RECEIVE: {@code waitTimeout}, or, when that is over {@link #longestWaitMillis} of the
     * delivery's branch timeout, that longest wait; said once per activation and figures ({@code SSBJCA0017}). The
     * branch timeout is the one the transaction manager gave the delivery's transaction (it passed it to the reader's
     * resource when it enlisted it, in {@code beforeDelivery}), or the activation's {@code transactionTimeout} when
     * the driver took that cap (SQL Server aborts the branch at it) and it is smaller. An empty RECEIVE that waited
     * the timeout out would be rolled back, and the reader would fail turn after turn. A turn whose figures have not
     * changed says nothing ({@link FailureReports#waitFiguresChanged}).
     */
    private static Duration receiveWait(DeliverySteps steps) {
        Duration wait = steps.waitTimeout();
        int seconds = steps.branchTimeout();
        boolean over = seconds > 0 && wait.toMillis() > longestWaitMillis(seconds);
        boolean capped = seconds > 0 && steps.branchTimeoutCapped();
        // the figures noted in range too, so that a wait set back over the limit is said again
        if (steps.waitFiguresChanged(wait.toMillis(), seconds, capped) && over) {
            if (capped) {
                LOG.waitOverTransactionTimeout(steps.activationName(), wait.toMillis(), seconds, CAP,
                        "SQL Server, which aborts the branch", longestWaitMillis(seconds), CAP_FIX);
            } else {
                LOG.waitOverTransactionTimeout(steps.activationName(), wait.toMillis(), seconds, MANAGERS,
                        "the transaction manager (ARJUNA012117)", longestWaitMillis(seconds), MANAGERS_FIX);
            }
        }
        return over ? Duration.ofMillis(longestWaitMillis(seconds)) : wait;
    }

    @Override
    public void deliverOnce(DeliverySteps steps) throws Exception {
        Batch batch = null;
        boolean ok = true;
        long start = 0;
        Throwable failure = null;
        steps.beforeDelivery();
        try {
            Received messages = steps.receive(receiveWait(steps));
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
            // the turn's own failure (a RECEIVE on a lost connection) is what the reader reports, not the end of the
            // transaction on the same dead connection nor the count of the failed delivery after it
            Throwable thrown = failure;
            try {
                steps.afterDelivery();
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
        return "XA transacted";
    }
}
