package org.ssbjca.inbound;

import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.DeliveryEvent;
import org.ssbjca.support.FlightEvents;
import org.ssbjca.support.Tracing;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.Received;

/**
 * The steps every delivery mode shares, for one reader's connection and endpoint: RECEIVE, sort the batch (set aside
 * what the bean must not see: poison messages, which are dead-lettered; priority requests, which the scanner already
 * read; EndDialog and Error when the adapter ends conversations itself), call the bean, and keep the books. The modes
 * ({@link XaDelivery}, {@link LocalDelivery}, {@link ReceiveFirstDelivery}, {@link DeadLetterRedelivery}) only
 * decide where the transaction begins and ends.
 *
 * <p><b>How the reader learns the outcome.</b> The container, not the reader, commits a transacted delivery: the
 * reader sees the end of its own branch through {@code CompletionAwareXAResource}, whose completion callback (or a
 * local commit or rollback) leaves the outcome in {@link ReaderConnection#takeOutcome()}. {@link #committed} is the
 * one rule that turns the bean's return and that outcome into "committed" for the counters.
 *
 * <p><b>Why failures are counted on a second connection, before the rollback.</b> A failed delivery must be counted
 * (toward {@code maxDeliveryAttempts}) even though its transaction rolls back, so the count is written and committed
 * on the reader's bookkeeping connection ({@link #recordFailures}). It is written while the delivery's branch is
 * still open: the branch holds the conversation group's lock, so no reader can take the message again before its
 * count is there. A rollback nobody announced (the commit failed) is counted afterwards, in {@link #finish}.
 *
 * <p><b>The count never waits for its own delivery.</b> The delivery may hold the very rows the count writes: a bean
 * that ended a conversation (or {@code endConversationOnDeadLetter}) deleted its messages' attempt rows in the
 * delivery's transaction. The bookkeeping would wait for the delivery's locks while the delivery waits for the
 * bookkeeping, on one thread, which no database sees as a deadlock. So the count before the rollback waits at most
 * {@link #LOCK_WAIT_BEFORE_ROLLBACK_MILLIS} for a lock; when that runs out (or the count fails otherwise) it is
 * rolled back and written after the delivery's rollback instead, in {@link #finish} (SSBJCA0180): then a reader may
 * take the message again before its count is written.
 */
public final class DeliverySteps {

    private static final AdapterLog LOG = AdapterLog.of(DeliverySteps.class);
    /**
     * The longest lock wait of a failure's count while the delivery's transaction is still open: the rows it writes
     * are held only by short bookkeeping transactions, or by the delivery itself, which would never let go.
     */
    static final int LOCK_WAIT_BEFORE_ROLLBACK_MILLIS = 1000;
    /** The longest lock wait of a failure's count once the delivery rolled back. */
    static final int LOCK_WAIT_AFTER_ROLLBACK_MILLIS = 10_000;

    private final EndpointActivation activation;
    private final DeliverySettings settings;
    private final ActivationMetrics metrics;
    private final String reader;
    private final ReaderConnection connection;
    private final MessageEndpoint endpoint;
    private final BatchSorter sorter;
    /** The delivery runs in the reader's local transaction, which the bean's verbs join when it has no JTA one. */
    private boolean localTransaction;
    /**
     * {@link EndpointActivation#failuresRecorded} before this transaction's RECEIVE: a failure a reader of this
     * activation recorded after it may be missing from the counts the RECEIVE read ({@link BatchSorter#prepare}).
     */
    private long failuresBeforeReceive;

    DeliverySteps(EndpointActivation activation, String reader, ReaderConnection connection, MessageEndpoint endpoint) {
        this.activation = activation;
        this.settings = activation.settings();
        this.metrics = activation.metrics();
        this.reader = reader;
        this.connection = connection;
        this.endpoint = endpoint;
        this.sorter = new BatchSorter(activation, reader, connection);
    }

    /**
     * The one rule for when a delivery counts as committed: the bean returned normally and the transaction holding
     * the delivery's work committed.
     *
     * @param ok whether the bean returned normally (and did not doom the transaction)
     * @param outcome how the reader's connection saw its transaction end
     * @param outcomeRequired whether the reader's transaction holds the delivery's work, so that only a committed
     *        outcome counts; false when the RECEIVE committed before the bean's call (then only a seen rollback
     *        of the bean's transaction makes it a failure)
     * @return whether the delivery counts as committed
     */
    public static boolean committed(boolean ok, TransactionOutcome outcome, boolean outcomeRequired) {
        return ok && (outcome == TransactionOutcome.NOT_SEEN ? !outcomeRequired
                : outcome == TransactionOutcome.COMMITTED);
    }

    /** Starts a local transaction on the reader's connection, which the bean's verbs join (it has no JTA one). */
    void beginLocal() throws java.sql.SQLException {
        connection.connection().setAutoCommit(false);
        localTransaction = true;
    }

    void beforeDelivery() throws Exception {
        endpoint.beforeDelivery(activation.method());
    }

    void afterDelivery() throws Exception {
        endpoint.afterDelivery();
    }

    /** Returns how the reader's last transaction ended, then forgets it (see {@link ReaderConnection#takeOutcome}). */
    TransactionOutcome takeOutcome() {
        return connection.takeOutcome();
    }

    /** Makes the delivery roll back ({@link ReaderConnection#setRollbackOnly}). */
    void setRollbackOnly() {
        connection.setRollbackOnly();
    }

    /** Returns whether the bean's listener method is transacted (the container's transaction). */
    boolean transacted() {
        return activation.transacted();
    }

    /** Returns whether the bean takes a conversation group's batch in one call. */
    boolean batchListener() {
        return activation.batchListener();
    }

    /**
     * Runs work in a local transaction of the reader's connection, committed when it returns, rolled back when it
     * throws ({@link ReaderConnection#inLocalTransaction}); the connection is in auto-commit afterwards.
     */
    void inLocalTransaction(ReaderConnection.LocalWork work) throws Exception {
        connection.inLocalTransaction(work);
    }

    /** Returns the dead letter taken out of the table in the turn's transaction, or null when it is not there. */
    org.ssbjca.backend.DeadLetter takeDeadLetter(long deadLetterId) {
        return ledger().takeDeadLetter(settings.queue(), deadLetterId);
    }

    /** Returns the timeout the transaction manager gave the reader's branch, in seconds, or 0 when none. */
    int branchTimeout() {
        return connection.transactionTimeout();
    }

    /** Returns whether {@link #branchTimeout} is the activation's cap rather than the transaction manager's. */
    boolean branchTimeoutCapped() {
        return connection.transactionTimeoutCapped();
    }

    ActivationMetrics metrics() {
        return metrics;
    }

    String reader() {
        return reader;
    }

    /** Sorts a batch in the RECEIVE's transaction (see {@link BatchSorter}); poison messages never reach the bean. */
    Batch prepare(Received received) {
        metrics.received.add(received.messages().size());
        return noted(sorter.prepare(received.messages(), received.recordedAttempts().orElse(null),
                failuresBeforeReceive), received);
    }

    /** Sorts a receive-first batch and ends what must be ended (see {@link BatchSorter#setAside}). */
    Batch setAside(Received received) {
        return noted(sorter.setAside(received.messages()), received);
    }

    /** Keeps with the batch what its RECEIVE learnt about the queue. */
    private Batch noted(Batch batch, Received received) {
        batch.tookLast = received.tookLast();
        batch.mayHaveDrainedPrioritised = settings.priorityEnabled() && received.mayHaveDrainedPrioritised();
        return batch;
    }

    /**
     * RECEIVE in the turn's transaction: the container's (if anything of the turn fails, XaDelivery votes to roll
     * back) or the reader's local one (the caller rolls back).
     */
    Received receive() {
        return receive(settings.waitTimeout());
    }

    /**
     * As {@link #receive()}, waiting at most {@code wait} when the queue is empty.
     *
     * @param wait how long the RECEIVE may wait for messages: {@code waitTimeout}, or less
     */
    Received receive(Duration wait) {
        failuresBeforeReceive = activation.failuresRecorded();
        return connection.session().receive(request(wait), settings.priorityEnabled(), settings.redelivery().holds());
    }

    /** Returns how long a RECEIVE waits when the queue is empty ({@code waitTimeout}). */
    Duration waitTimeout() {
        return settings.waitTimeout();
    }

    /** Returns the activation's name, as its logs give it. */
    String activationName() {
        return activation.name();
    }

    /** See {@link FailureReports#waitFiguresChanged}. */
    boolean waitFiguresChanged(long waitMillis, int branchTimeoutSeconds, boolean capped) {
        return activation.reports().waitFiguresChanged(waitMillis, branchTimeoutSeconds, capped);
    }

    void endLocal(boolean commit) throws java.sql.SQLException {
        if (commit) {
            connection.commitLocal();
        } else {
            connection.rollbackLocal();
        }
    }

    /**
     * A full batch means the group may hold more: wake the readers waiting on the queue now that its lock is
     * released, instead of leaving them to their next fallback look; unless the RECEIVE took the last messages
     * waiting ({@link Received#tookLast}) and its transaction committed.
     *
     * @param committed whether the RECEIVE's transaction committed
     */
    void wakeOthersIfMoreWait(Batch batch, boolean committed) {
        if (othersMayFindMore(batch.received.size(), settings.batchSize(), batch.tookLast, committed)) {
            activation.database().broker().signals().handOff(settings.queue());
        }
    }

    /**
     * Returns whether another reader may find messages now: the RECEIVE took a full batch, and it is not known to have
     * taken, committed, the last ones waiting.
     *
     * @param taken how many messages the RECEIVE took
     * @param batchSize its TOP
     * @param tookLast {@link Received#tookLast}
     * @param committed whether its transaction committed (a rollback puts the messages back)
     */
    static boolean othersMayFindMore(int taken, int batchSize, boolean tookLast, boolean committed) {
        return taken >= batchSize && !(committed && tookLast);
    }

    private ReceiveRequest request(Duration wait) {
        return ReceiveRequest.from(settings.queue()).top(settings.batchSize()).timeout(wait);
    }

    DeliveryLedger ledger() {
        return connection.ledger();
    }

    /**
     * Calls the bean, then ends this side of the conversations whose EndDialog or Error came in the batch, forgets
     * the failed deliveries of messages delivered again, and drops the group's priority once it is drained.
     *
     * @return whether the bean returned normally
     */
    boolean deliver(Batch batch) {
        if (!batch.application.isEmpty()) {
            metrics.started(reader, new ActivationMetrics.InFlight(batch.group(), batch.application.size(),
                    System.currentTimeMillis()));
            Object transaction = activation.transactionKey();
            DeliveryContext.enter(activation.database().source().config(), connection.session(),
                    transaction == null && localTransaction ? DeliveryContext.NO_TRANSACTION : transaction,
                    handle -> sorter.takeBeforeEnding(batch, handle), localTransaction ? null : connection::inBranch);
            DeliveryEvent event = FlightEvents.begun(new DeliveryEvent());
            try {
                Tracing tracing = activation.tracing();
                if (activation.batchListener()) {
                    List<BrokerMessage> all = Collections.unmodifiableList(batch.application);
                    tracing.deliver(settings.queue(), firstTraced(all),
                            () -> ((ConversationGroupListener) endpoint).onMessages(all));
                } else {
                    List<BrokerMessage> messages = batch.application;
                    for (int i = 0; i < messages.size(); i++) {
                        batch.called = i + 1;
                        BrokerMessage m = messages.get(i);
                        tracing.deliver(settings.queue(), m, () -> ((BrokerMessageListener) endpoint).onMessage(m));
                    }
                }
            } catch (RuntimeException | Error e) {
                // An Error from the bean (an assertion, a class it cannot load) fails the delivery like an
                // exception: rolled back and counted, never taken for a success.
                batch.error = failureText(e);
                batch.verdict = settings.failurePolicy().classify(e);
                if (batch.called > 0) {
                    // a per-message bean: the call that threw names the message that failed (see recordFailures)
                    batch.failedOn = batch.application.get(batch.called - 1);
                }
                LOG.beanFailed(e, reader, batch.application.get(Math.max(batch.called - 1, 0)));
                return false;
            } finally {
                DeliveryContext.leave();
                metrics.finished(reader);
                DeliveryEvent.finish(event, settings.queue(), batch.application.size(), batch.group(),
                        () -> batch.error == null && !activation.transactionRollbackOnly());
            }
            if (activation.transactionRollbackOnly()) {
                // The bean returned but doomed the transaction (setRollbackOnly). Nothing below may run in it: it
                // would be rolled back anyway, and clearing the failure count here would lock the row that
                // recordFailures then updates on the bookkeeping connection, which would wait on this very
                // transaction (for LOCK_WAIT_BEFORE_ROLLBACK_MILLIS, and count only after the rollback).
                batch.error = "the bean marked the transaction for rollback";
                return false;
            }
        }
        batch.ends.forEach(sorter::endThisSide);
        if (!batch.retried.isEmpty() || !batch.deadLetteredHeld.isEmpty()) {
            // a dead letter's own failures left a hold on the group that no later success of it will end
            List<BrokerMessage> done = batch.retried;
            if (!batch.deadLetteredHeld.isEmpty()) {
                done = new ArrayList<>(batch.retried);
                done.addAll(batch.deadLetteredHeld);
            }
            ledger().clearAttempts(done);
        }
        dropPriorityIfDrained(batch);
        return true;
    }

    /** A batch's first message that carries a trace context, else its first: the one a batch's call continues. */
    static BrokerMessage firstTraced(List<BrokerMessage> batch) {
        return batch.stream().filter(m -> m.traceContext().isPresent()).findFirst().orElse(batch.get(0));
    }

    /**
     * Returns its root cause's class and message, with the class of the exception that wrapped it when the container
     * did: what a dead letter's error says.
     *
     * @param e what the bean (or the container around it) threw
     */
    public static String failureText(Throwable e) {
        Throwable root = FailurePolicy.rootCause(e);
        String text = root.getClass().getName() + ": " + root.getMessage();
        return root == e ? text : text + " (thrown as " + e.getClass().getName() + ")";
    }

    /**
     * Drops the batch's group's priority if the group has no message left: one its scans know, or one the RECEIVE
     * may have drained unseen ({@link Received#mayHaveDrainedPrioritised}), or one a priority request in the batch
     * may have set (another node's scan may have recorded it while this one believed the queue without priorities).
     */
    void dropPriorityIfDrained(Batch batch) {
        if (settings.priorityEnabled() && (batch.mayHaveDrainedPrioritised || batch.priorityRequests > 0
                || activation.priorities().hasPriority(batch.group()))) {
            ledger().clearPriorityIfDrained(settings.queue(), batch.group());
        }
    }

    /**
     * Counts the outcome. A rollback nobody saw coming (the commit failed) still counts a failed delivery for each
     * message the bean saw, now that the branch is over ({@link #recordFailures}, unless it already ran).
     */
    void finish(Batch batch, boolean ok, long start, TransactionOutcome outcome) throws Exception {
        if (batch == null) {
            return;
        }
        wakeOthersIfMoreWait(batch, outcome == TransactionOutcome.COMMITTED);
        boolean committed = committed(ok, outcome, true);
        count(batch, committed, start);
        if (!committed && outcome == TransactionOutcome.ROLLED_BACK) {
            record(batch, LOCK_WAIT_AFTER_ROLLBACK_MILLIS);
        }
    }

    /**
     * Counts what a committed batch set aside (dead letters, rejected priority requests, Error messages) and says
     * it (SSBJCA0042, SSBJCA0045, the {@code deadLettered} notifications).
     */
    void countSetAside(Batch batch) {
        // only what there is: an add of 0 still writes the counter every reader shares (see
        // docs/design/shared-counters.md)
        if (batch.deadLettered != 0) {
            metrics.deadLettered.add(batch.deadLettered);
        }
        if (batch.rejectedPriorityRequests != 0) {
            metrics.priorityRequestsRejected.add(batch.rejectedPriorityRequests);
        }
        for (BrokerMessage end : batch.ends) {
            if (end.isError()) {
                metrics.errorsReceived.increment();
            }
        }
        batch.announce();
    }

    void count(Batch batch, boolean committed, long start) {
        if (!batch.application.isEmpty()) {
            chargeBreaker(batch, committed);
        }
        if (!batch.retried.isEmpty()) {
            metrics.redelivered.add(batch.retriedSeen());
        }
        if (committed) {
            metrics.committed.increment();
            metrics.delivered.add(batch.application.size());
            metrics.deliveryTook(System.nanoTime() - start);
            countSetAside(batch); // last: what it says runs listeners, which must not keep the counts above
        } else {
            metrics.rolledBack.increment();
            metrics.error(batch.error != null ? batch.error : "delivery of " + batch.application.size()
                    + " message(s) of group " + batch.group() + " rolled back");
        }
    }

    /**
     * Tells the activation's circuit breaker how a delivery to the bean ended: a failure the policy found
     * unrecoverable is the message's fault, not the system's, and is not charged to it.
     */
    private void chargeBreaker(Batch batch, boolean committed) {
        CircuitBreaker breaker = activation.breaker();
        if (committed) {
            breaker.succeeded();
        } else if (batch.verdict != FailurePolicy.Verdict.UNRECOVERABLE) {
            List<BrokerMessage> charged = batch.charged();
            BrokerMessage m = charged.isEmpty() ? batch.application.get(0) : charged.get(0);
            breaker.failed(DeliveryLedger.key(m), batch.error != null ? batch.error : "the delivery rolled back");
        }
    }

    /**
     * Counts a failed delivery for the messages the failure is charged to ({@link Batch#charged}): when a per-message
     * bean threw on one message, that message alone (those before it were handled and rolled back only with it, those
     * after it were not delivered), so its batch's good messages are not dead-lettered with it; else each message the
     * bean was given. In a transaction of its own on the bookkeeping connection. Done before the delivery's
     * transaction ends: its branch still holds the group, so no other reader can take the message before the count is
     * written. The redelivery delay's hold follows the most failed of the charged messages.
     *
     * <p>A count that cannot be written now (a lock wait over {@link #LOCK_WAIT_BEFORE_ROLLBACK_MILLIS}: the
     * delivery itself holds the rows; or any other failure) is rolled back and left to {@link #finish}, which writes
     * it once the delivery rolled back (SSBJCA0180).
     */
    void recordFailures(Batch batch) {
        try {
            record(batch, LOCK_WAIT_BEFORE_ROLLBACK_MILLIS);
        } catch (Exception e) {
            LOG.failureCountDeferred(reader, batch.group(), ReaderLoop.describe(e));
        }
    }

    private void record(Batch batch, int lockWaitMillis) throws Exception {
        if (batch.application.isEmpty() || batch.failuresRecorded) {
            return;
        }
        java.sql.Connection c = connection.bookkeeping();
        try {
            DeliveryLedger ledger = activation.database().broker().ledger(c);
            ledger.boundLockWaits(lockWaitMillis);
            int most = 0;
            for (BrokerMessage m : batch.charged()) {
                most = Math.max(most, recordFailure(ledger, m, batch));
            }
            RedeliveryPolicy redelivery = settings.redelivery();
            if (redelivery.holds() && most < settings.maxDeliveryAttempts()) {
                // before the rollback releases the group: no reader can take it again without seeing the hold
                ledger.holdGroup(settings.queue(), batch.group(), redelivery.delayAfter(Math.max(most, 1)));
            }
            c.commit();
        } catch (RuntimeException | java.sql.SQLException e) {
            try {
                c.rollback();
            } catch (java.sql.SQLException rollbackFailed) {
                e.addSuppressed(rollbackFailed);
            }
            throw e;
        }
        batch.failuresRecorded = true;
        activation.failureRecorded();
    }

    /**
     * Counts one failed delivery of a message as its batch's verdict says: a transient failure counts nothing; an
     * unrecoverable one counts one more and marks the message set aside ({@link DeliveryLedger#recordUnrecoverable}),
     * so that the next RECEIVE that takes it dead-letters it without calling the bean (on any node: the mark is in the
     * ledger) with the deliveries really made; else one more.
     *
     * @return the failed deliveries now recorded for it (0 for a transient failure, which reads nothing)
     */
    private int recordFailure(DeliveryLedger ledger, BrokerMessage m, Batch batch) {
        String what = "message " + m.messageSequenceNumber() + " of conversation " + m.conversationId() + " (handle "
                + m.conversationHandle() + " here)";
        switch (batch.verdict) {
            case TRANSIENT -> {
                LOG.transientFailure(reader, batch.error, what);
                return 0;
            }
            case UNRECOVERABLE -> {
                LOG.unrecoverableFailure(reader, batch.error, what);
                return ledger.recordUnrecoverable(settings.queue(), m, batch.error);
            }
            default -> {
                return ledger.recordFailure(settings.queue(), m, batch.error);
            }
        }
    }
}
