package org.ssbjca.inbound;

import org.ssbjca.support.AdapterLog;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.backend.DeliveryLedger;

/**
 * One delivery transaction of one reader: RECEIVE, set aside what the bean must not see (poison messages, which
 * are dead-lettered; priority requests, which the scanner already read; EndDialog and Error when the adapter ends
 * conversations itself), call the bean, and keep the books: failed deliveries are counted after a rollback, in a
 * transaction of their own.
 */
final class DeliveryCycle {

    private static final AdapterLog LOG = AdapterLog.of(DeliveryCycle.class);

    private final Activation activation;
    private final DeliverySettings settings;
    private final ActivationMetrics metrics;
    private final String reader;
    private final ReaderConnection connection;
    private final MessageEndpoint endpoint;
    /** The delivery runs in the reader's local transaction, which the bean's verbs join when it has no JTA one. */
    private boolean localTransaction;

    DeliveryCycle(Activation activation, String reader, ReaderConnection connection, MessageEndpoint endpoint) {
        this.activation = activation;
        this.settings = activation.settings();
        this.metrics = activation.metrics();
        this.reader = reader;
        this.connection = connection;
        this.endpoint = endpoint;
    }

    /** RECEIVE and delivery in the container's transaction (exactly once). */
    void transacted() throws Exception {
        Batch batch = null;
        boolean ok = true;
        long start = 0;
        endpoint.beforeDelivery(activation.method());
        try {
            List<BrokerMessage> messages = receive();
            if (!messages.isEmpty()) {
                start = System.nanoTime();
                batch = prepare(messages);
                ok = deliver(batch);
                if (!ok) {
                    // The reader's branch votes to roll back itself: the container rolls back when the bean throws,
                    // but a call that fails before it reaches the bean (WildFly while the bean's component stops)
                    // leaves the transaction active, and afterDelivery would commit a RECEIVE nobody handled.
                    connection.setRollbackOnly();
                    recordFailures(batch);
                }
            }
        } finally {
            try {
                endpoint.afterDelivery();
            } finally {
                finish(batch, ok, start, connection.takeOutcome());
            }
        }
    }

    /** A bean whose method is not transacted: a local transaction around RECEIVE and delivery (at least once). */
    void local() throws Exception {
        connection.connection().setAutoCommit(false);
        localTransaction = true;
        Batch batch = null;
        boolean ok = true;
        long start = 0;
        try {
            List<BrokerMessage> messages = connection.session().receive(request(), settings.priorityEnabled());
            if (!messages.isEmpty()) {
                start = System.nanoTime();
                batch = prepare(messages);
                endpoint.beforeDelivery(activation.method());
                try {
                    ok = deliver(batch);
                } finally {
                    endpoint.afterDelivery();
                }
                if (!ok) {
                    recordFailures(batch);
                }
            }
        } catch (Exception | Error e) {
            ok = false;
            throw e;
        } finally {
            try {
                endLocal(ok);
            } finally {
                finish(batch, ok, start, connection.takeOutcome());
            }
        }
    }

    /**
     * RECEIVE commits before the bean sees the messages (at most once): a failing bean loses them, and several
     * readers can work on one conversation's messages in parallel. What the bean must not see is set aside in the
     * RECEIVE's transaction, as {@link #prepare} does for a transacted delivery.
     */
    void receiveCommitsFirst() throws Exception {
        connection.connection().setAutoCommit(false);
        List<BrokerMessage> received;
        Batch sorted;
        try {
            received = connection.session().receive(request(), settings.priorityEnabled());
            sorted = setAside(received);
            connection.commitLocal();
            countSetAside(sorted);
            wakeOthersIfMoreWait(received);
        } catch (RuntimeException e) {
            connection.rollbackLocal();
            throw e;
        } finally {
            // What runs after the delivery on this connection without a container transaction (dropping a drained
            // group's priority) commits at once, instead of in a transaction left open until the next turn.
            connection.connection().setAutoCommit(true);
        }
        metrics.received.add(received.size());
        List<BrokerMessage> messages = sorted.application;
        if (messages.isEmpty()) {
            return;
        }
        List<List<BrokerMessage>> deliveries = new ArrayList<>();
        if (activation.batchListener()) {
            deliveries.add(messages);
        } else {
            messages.forEach(m -> deliveries.add(List.of(m)));
        }
        for (List<BrokerMessage> delivery : deliveries) {
            Batch batch = new Batch(delivery);
            batch.application.addAll(delivery);
            long start = System.nanoTime();
            boolean ok = true;
            endpoint.beforeDelivery(activation.method());
            try {
                ok = deliver(batch);
            } finally {
                try {
                    endpoint.afterDelivery();
                } finally {
                    Boolean outcome = connection.takeOutcome();
                    boolean committed = ok && !Boolean.FALSE.equals(outcome);
                    count(batch, committed, start);
                    if (!committed) {
                        LOG.receivedFirstAndLost(reader, delivery.size());
                    }
                }
            }
        }
    }

    /**
     * Keeps what the bean must see: priority requests are consumed (the scanner reads them where they sit in the
     * queue), and EndDialog or Error end this side when the adapter ends conversations itself.
     */
    private Batch setAside(List<BrokerMessage> received) {
        Batch batch = sort(received, Map.of());
        batch.ends.forEach(this::endThisSide);
        return batch;
    }

    /**
     * Ends this side of a conversation whose EndDialog or Error came in. An Error (the other side ended with an
     * error, or the broker failed the dialog) is logged at WARN with its code and description: the bean never sees
     * it, so this is how an initiator's operator learns that the dialog failed.
     */
    private void endThisSide(BrokerMessage endDialogOrError) {
        if (endDialogOrError.isError()) {
            LOG.errorFromOtherSide(reader, endDialogOrError.conversationHandle(),
                    endDialogOrError.serviceName(), endDialogOrError.errorCode(),
                    endDialogOrError.errorDescription());
        }
        try {
            connection.session().endConversation(endDialogOrError.conversationHandle(), null, null);
        } catch (ConversationEndedException alreadyEnded) {
            LOG.conversationAlreadyEnded(reader, endDialogOrError.conversationHandle());
        }
    }

    /**
     * Delivers a dead letter again, taking it out of the dead-letter table in the delivery's transaction: the
     * container's for a transacted bean, else a local one, as {@link #local()} has (a bean that fails leaves the
     * letter where it was).
     */
    boolean redeliver(long deadLetterId) throws Exception {
        boolean local = !activation.transacted();
        if (local) {
            connection.connection().setAutoCommit(false);
            localTransaction = true;
        }
        Batch batch = null;
        boolean ok = true;
        long start = System.nanoTime();
        endpoint.beforeDelivery(activation.method());
        try {
            DeadLetter letter = ledger().takeDeadLetter(settings.queue(), deadLetterId);
            if (letter != null) {
                batch = new Batch(List.of(letter.message()));
                batch.application.add(letter.message());
                metrics.redelivered.increment();
                ok = deliver(batch);
            }
        } catch (Exception | Error e) {
            ok = false;
            throw e;
        } finally {
            if (!ok && !local) {
                connection.setRollbackOnly(); // as in transacted(): the dead letter stays if the call failed
            }
            try {
                endpoint.afterDelivery();
            } finally {
                if (local) {
                    endLocal(ok);
                }
                Boolean outcome = connection.takeOutcome();
                if (batch != null) {
                    count(batch, ok && Boolean.TRUE.equals(outcome), start);
                }
            }
        }
        return batch != null && ok;
    }

    private void endLocal(boolean commit) throws java.sql.SQLException {
        if (commit) {
            connection.commitLocal();
        } else {
            connection.rollbackLocal();
        }
    }

    /**
     * A full batch means the group may hold more: wake the readers waiting on the queue now that its lock is
     * released, instead of leaving them to their next fallback look.
     */
    private void wakeOthersIfMoreWait(List<BrokerMessage> messages) {
        if (messages.size() >= settings.batchSize()) {
            activation.database().broker().signals().signal(settings.queue());
        }
    }

    private List<BrokerMessage> receive() {
        try {
            return connection.session().receive(request(), settings.priorityEnabled());
        } catch (RuntimeException e) {
            connection.setRollbackOnly();
            throw e;
        }
    }

    private ReceiveRequest request() {
        return ReceiveRequest.from(settings.queue()).top(settings.batchSize()).timeout(settings.waitTimeout());
    }

    private DeliveryLedger ledger() {
        return activation.database().broker().ledger(connection.connection());
    }

    /** Sorts a batch: poison messages are dead-lettered here, in this transaction, and never reach the bean. */
    private Batch prepare(List<BrokerMessage> messages) {
        metrics.received.add(messages.size());
        DeliveryLedger ledger = ledger();
        Map<String, Integer> attempts = activation.mayHaveAttempts(() -> ledger.hasAttempts(settings.queue()))
                ? ledger.attempts(messages) : Map.of();
        return sort(messages, attempts);
    }

    /**
     * @param messages what one RECEIVE returned
     * @param attempts failed deliveries by {@link DeliveryLedger#key}: those at the limit are dead-lettered
     * @return the batch: priority requests left out (the scanner reads them where they sit in the queue), EndDialog
     *         and Error apart when the adapter ends conversations itself, the rest for the bean
     */
    private Batch sort(List<BrokerMessage> messages, Map<String, Integer> attempts) {
        Batch batch = new Batch(messages);
        String priorityType = settings.priorityMessageType();
        for (BrokerMessage m : messages) {
            int failed = attempts.getOrDefault(DeliveryLedger.key(m), 0);
            if (failed >= settings.maxDeliveryAttempts()) {
                deadLetter(m, failed);
                batch.deadLettered++;
            } else if (priorityType != null && priorityType.equals(m.messageTypeName())) {
                // consumed: the scanner read it where it sat in the queue; one without a priority is set aside
                if (PriorityScanner.parse(m.body()) == null) {
                    rejectPriorityRequest(m);
                    batch.deadLettered++;
                    batch.rejectedPriorityRequests++;
                }
            } else if (settings.endsOnSystemMessages() && (m.isEndDialog() || m.isError())) {
                batch.ends.add(m);
            } else {
                batch.application.add(m);
                if (failed > 0) {
                    batch.retried.add(m);
                }
            }
        }
        return batch;
    }

    /** A priority request without a priority: a dead letter that says why, in this transaction, and a WARN. */
    private void rejectPriorityRequest(BrokerMessage m) {
        ledger().deadLetter(settings.queue(), m, 0, "not a priority request: the body must be <priority>n</priority>"
                + " or the number alone, n from 0 to 255");
        LOG.priorityRequestRejected(reader, m.messageTypeName(), m.conversationHandle(), m.conversationGroupId(),
                abbreviated(m.bodyAsText()));
        activation.events().deadLettered(settings.queue(), m, 0);
    }

    private static String abbreviated(String body) {
        return body == null || body.length() <= 100 ? body : body.substring(0, 100) + "...";
    }

    private void deadLetter(BrokerMessage m, int failed) {
        ledger().deadLetter(settings.queue(), m, failed, null);
        LOG.deadLettered(reader, m.messageSequenceNumber(), m.conversationHandle(), m.messageTypeName(), failed);
        activation.events().deadLettered(settings.queue(), m, failed);
        if (settings.endConversationOnDeadLetter()) {
            try {
                connection.session().endConversation(m.conversationHandle(), 500,
                        "message " + m.messageSequenceNumber() + " could not be processed after " + failed
                                + " attempts and was dead-lettered");
            } catch (ConversationEndedException alreadyEnded) {
                LOG.deadLetterConversationAlreadyEnded(m.conversationHandle());
            }
        }
    }

    /**
     * Calls the bean, then ends this side of the conversations whose EndDialog or Error came in the batch, forgets
     * the failed deliveries of messages delivered again, and drops the group's priority once it is drained.
     *
     * @return whether the bean returned normally
     */
    private boolean deliver(Batch batch) {
        if (!batch.application.isEmpty()) {
            metrics.started(reader, new ActivationMetrics.InFlight(batch.group(), batch.application.size(),
                    Instant.now()));
            Object transaction = activation.transactionKey();
            DeliveryContext.enter(activation.database().source().config(), connection.session(),
                    transaction == null && localTransaction ? DeliveryContext.NO_TRANSACTION : transaction);
            try {
                if (activation.batchListener()) {
                    ((ConversationGroupListener) endpoint).onMessages(Collections.unmodifiableList(batch.application));
                } else {
                    for (BrokerMessage m : batch.application) {
                        ((BrokerMessageListener) endpoint).onMessage(m);
                    }
                }
            } catch (RuntimeException | Error e) {
                // An Error from the bean (an assertion, a class it cannot load) fails the delivery like an
                // exception: rolled back and counted, never taken for a success.
                batch.error = e.getClass().getName() + ": " + e.getMessage();
                LOG.beanFailed(e, reader, batch.application.get(0));
                return false;
            } finally {
                DeliveryContext.leave();
                metrics.finished(reader);
            }
            if (activation.transactionRollbackOnly()) {
                // The bean returned but doomed the transaction (setRollbackOnly). Nothing below may run in it: it
                // would be rolled back anyway, and clearing the failure count here would lock the row that
                // recordFailures then updates on the bookkeeping connection, which would wait on this very
                // transaction (until a lock timeout, or forever on PostgreSQL).
                batch.error = "the bean marked the transaction for rollback";
                return false;
            }
        }
        batch.ends.forEach(this::endThisSide);
        if (!batch.retried.isEmpty()) {
            ledger().clearAttempts(batch.retried);
        }
        if (settings.priorityEnabled() && activation.priorities().hasPriority(batch.group())) {
            ledger().clearPriorityIfDrained(settings.queue(), batch.group());
        }
        return true;
    }

    /**
     * Counts the outcome. A rollback nobody saw coming (the commit failed) still counts a failed delivery for each
     * message the bean saw, now that the branch is over.
     */
    private void finish(Batch batch, boolean ok, long start, Boolean outcome) throws Exception {
        if (batch == null) {
            return;
        }
        wakeOthersIfMoreWait(batch.received);
        boolean committed = ok && Boolean.TRUE.equals(outcome);
        count(batch, committed, start);
        if (!committed && Boolean.FALSE.equals(outcome)) {
            recordFailures(batch);
        }
    }

    /** Counts what a committed batch set aside: dead letters, rejected priority requests, Error messages. */
    private void countSetAside(Batch batch) {
        metrics.deadLettered.add(batch.deadLettered);
        metrics.priorityRequestsRejected.add(batch.rejectedPriorityRequests);
        metrics.errorsReceived.add(batch.ends.stream().filter(BrokerMessage::isError).count());
    }

    private void count(Batch batch, boolean committed, long start) {
        metrics.redelivered.add(batch.retried.size());
        if (committed) {
            countSetAside(batch);
            metrics.committed.increment();
            metrics.delivered.add(batch.application.size());
            metrics.deliveryTook(System.nanoTime() - start);
        } else {
            metrics.rolledBack.increment();
            metrics.error(batch.error != null ? batch.error : "delivery of " + batch.application.size()
                    + " message(s) of group " + batch.group() + " rolled back");
        }
    }

    /**
     * Counts a failed delivery for each message the bean saw, in a transaction of its own on the bookkeeping
     * connection. Done before the delivery's transaction ends: its branch still holds the group, so no other reader
     * can take the message before the count is written.
     */
    private void recordFailures(Batch batch) throws Exception {
        if (batch.application.isEmpty() || batch.failuresRecorded) {
            return;
        }
        java.sql.Connection c = connection.bookkeeping();
        try {
            DeliveryLedger ledger = activation.database().broker().ledger(c);
            for (BrokerMessage m : batch.application) {
                ledger.recordFailure(settings.queue(), m, batch.error);
            }
            c.commit();
            batch.failuresRecorded = true;
            activation.attemptsRecorded();
        } catch (RuntimeException e) {
            c.rollback();
            throw e;
        }
    }

    /** The messages of one RECEIVE, sorted. */
    private static final class Batch {
        final List<BrokerMessage> received;
        final List<BrokerMessage> application = new ArrayList<>();
        final List<BrokerMessage> ends = new ArrayList<>();
        final List<BrokerMessage> retried = new ArrayList<>();
        int deadLettered;
        int rejectedPriorityRequests;
        String error;
        boolean failuresRecorded;

        Batch(List<BrokerMessage> received) {
            this.received = received;
        }

        java.util.UUID group() {
            return received.get(0).conversationGroupId();
        }
    }
}
