package org.ssbjca.inbound;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.support.AdapterLog;

/**
 * Sorts what one RECEIVE returned, in the RECEIVE's transaction: poison messages (at {@code maxDeliveryAttempts})
 * are dead-lettered, priority requests are consumed (the scanner read them where they sat in the queue; one without
 * a priority is dead-lettered with the reason), EndDialog and Error end this side when the adapter ends
 * conversations itself; the rest is for the bean.
 */
final class BatchSorter {

    private static final AdapterLog LOG = AdapterLog.of(BatchSorter.class);
    /** How many of a conversation's remaining messages one RECEIVE takes before the conversation ends. */
    private static final int REST_BATCH = 100;

    private final EndpointActivation activation;
    private final DeliverySettings settings;
    private final String reader;
    private final ReaderConnection connection;

    BatchSorter(EndpointActivation activation, String reader, ReaderConnection connection) {
        this.activation = activation;
        this.settings = activation.settings();
        this.reader = reader;
        this.connection = connection;
    }

    private DeliveryLedger ledger() {
        return connection.ledger();
    }

    /**
     * Sorts a batch: poison messages are dead-lettered here, in this transaction, and never reach the bean. Their
     * failed deliveries are those the RECEIVE read for the messages it took, in this transaction, after it took them
     * ({@code attempts}; the reader's session is told to, {@link
     * BrokerSession#readAttemptsWithReceive}): so a failure another node recorded before its rollback released the
     * group counts here too (on PostgreSQL, one committed while the RECEIVE's statement ran may be missed: see
     * {@code PortableSql.receiveNext}). A session that did not read them leaves it to the ledger, in this transaction;
     * so does a RECEIVE after whose start a reader of this activation recorded a failure: on PostgreSQL its statement
     * read the counts with a snapshot taken before that failure committed, and the message whose rollback followed
     * can be among those it took (with several readers on one node, once more than {@code maxDeliveryAttempts}).
     *
     * @param attempts the counts the RECEIVE read ({@link org.ssbjca.backend.Received#recordedAttempts}), or null
     * @param failuresBeforeReceive {@link EndpointActivation#failuresRecorded} before the RECEIVE
     */
    Batch prepare(List<BrokerMessage> messages, Map<String, Integer> attempts, long failuresBeforeReceive) {
        if (attempts == null || activation.failuresRecorded() != failuresBeforeReceive) {
            attempts = ledger().attempts(messages);
        }
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
            // most batches have no failed delivery: no key is written for them
            int failed = attempts.isEmpty() ? 0 : attempts.getOrDefault(DeliveryLedger.key(m), 0);
            if (failed >= settings.maxDeliveryAttempts()) {
                deadLetter(batch, m, DeliveryLedger.deliveries(failed));
                batch.deadLettered++;
                if (settings.redelivery().holds()) {
                    batch.deadLetteredHeld.add(m);
                }
            } else if (priorityType != null && priorityType.equals(m.messageTypeName())) {
                // consumed: the scanner read it where it sat in the queue; one without a priority is set aside
                consumePriorityRequest(batch, m);
            } else if (settings.endsOnSystemMessages() && (m.isEndDialog() || m.isError())) {
                batch.ends.add(m);
            } else {
                BrokerMessage delivered = failed > 0 ? m.withDeliveryAttempt(failed + 1) : m;
                batch.application.add(delivered);
                if (failed > 0) {
                    batch.retried.add(delivered);
                }
            }
        }
        return batch;
    }

    /**
     * Before a conversation of the batch ends in the batch's transaction (the bean's END CONVERSATION on the
     * delivery's session, or the adapter's on a dead letter), takes the conversation's messages still in the queue:
     * END CONVERSATION would remove them unseen, and a priority request without a priority among them must still be
     * dead-lettered and counted, whatever its place in the queue. The other messages taken are those the end removes
     * anyway. Nothing is taken when the ledger knows the conversation has no priority request queued ({@link
     * DeliveryLedger#mayHaveQueued}), for a conversation that is not the batch's, or when priority requests are not
     * looked for.
     *
     * @param batch the batch being delivered, whose counts and announcements take the rejected requests
     * @param handle the conversation about to end
     */
    void takeBeforeEnding(Batch batch, UUID handle) {
        String priorityType = settings.priorityMessageType();
        if (priorityType == null) {
            return;
        }
        BrokerMessage ofBatch = null;
        for (BrokerMessage m : batch.received) {
            if (m.conversationHandle().equals(handle)) {
                ofBatch = m;
                break;
            }
        }
        if (ofBatch == null || !ledger().mayHaveQueued(handle, priorityType)) {
            return;
        }
        ReceiveRequest rest = ReceiveRequest.from(settings.queue()).conversation(ofBatch.conversation())
                .top(REST_BATCH).timeout(Duration.ZERO);
        List<BrokerMessage> taken;
        do {
            taken = connection.session().receive(rest);
            activation.metrics().received.add(taken.size());
            for (BrokerMessage m : taken) {
                if (priorityType.equals(m.messageTypeName())) {
                    consumePriorityRequest(batch, m);
                }
            }
        } while (taken.size() == REST_BATCH);
    }

    /** A priority request taken: consumed; one without a priority is dead-lettered ({@link #rejectPriorityRequest}). */
    private void consumePriorityRequest(Batch batch, BrokerMessage m) {
        batch.priorityRequests++;
        if (PriorityScanner.parse(m.body()) == null) {
            rejectPriorityRequest(batch, m);
            batch.deadLettered++;
            batch.rejectedPriorityRequests++;
        }
    }

    /**
     * A priority request without a priority: a dead letter that says why, in this transaction, and a WARN with a
     * notification once it commits.
     */
    private void rejectPriorityRequest(Batch batch, BrokerMessage m) {
        ledger().deadLetter(settings.queue(), m, 0, "not a priority request: the body must be <priority>n</priority>"
                + " or the number alone, n from 0 to 255", null);
        batch.announceOnCommit(() -> {
            LOG.priorityRequestRejected(reader, m.messageTypeName(), m.conversationId(), m.conversationHandle(),
                    m.conversationGroupId(), abbreviated(m.bodyAsText()));
            activation.events().deadLettered(settings.queue(), m, 0);
        });
    }

    private static String abbreviated(String body) {
        return body == null || body.length() <= 100 ? body : body.substring(0, 100) + "...";
    }

    /** Moves a poison message to the dead-letter table, in this transaction; said (WARN, notification) once it commits. */
    private void deadLetter(Batch batch, BrokerMessage m, int failed) {
        UUID copy = settings.deadLetterService() == null ? null : sendToDeadLetterService(batch, m);
        ledger().deadLetter(settings.queue(), m, failed, null, copy);
        batch.announceOnCommit(() -> {
            LOG.deadLettered(reader, m.messageSequenceNumber(), m.conversationId(), m.conversationHandle(),
                    m.messageTypeName(), failed);
            activation.events().deadLettered(settings.queue(), m, failed);
        });
        if (settings.endConversationOnDeadLetter()) {
            takeBeforeEnding(batch, m.conversationHandle());
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
     * Sends a copy of a dead letter to the activation's dead-letter service, in this transaction: a dialog from the
     * message's service on its contract, one SEND with its message type and body, and END CONVERSATION (the service
     * reads it and ends its side). When that fails, at once (the service or the contract is not there, the contract
     * does not let this side send that type) or in the database (the service's queue refuses the rows), it is undone
     * ({@link BrokerSession#attempt}: on H2 and PostgreSQL to a savepoint, since a failed statement aborts a
     * PostgreSQL transaction; on SQL Server by ending the dialog WITH CLEANUP) and the letter is in the table only,
     * with a WARN once the transaction commits; the transaction goes on. On SQL Server most refusals come later, as
     * an Error message on this queue (logged as SSBJCA0044).
     *
     * @return the copy's conversation id, for its dead letter's row; null when it was undone
     */
    private UUID sendToDeadLetterService(Batch batch, BrokerMessage m) {
        String service = settings.deadLetterService();
        BrokerSession session = connection.session();
        UUID[] dialog = new UUID[1];
        UUID[] conversationId = new UUID[1];
        BrokerException refused = session.attempt(() -> {
            Conversation copy = session.beginDialog(m.serviceName(), service, m.serviceContractName(),
                    DialogOptions.defaults());
            dialog[0] = copy.handle();
            conversationId[0] = copy.conversationId();
            session.send(dialog[0], m.messageTypeName(), m.body());
            session.endConversation(dialog[0], null, null);
        }, () -> {
            if (dialog[0] != null) {
                try {
                    session.endConversationWithCleanup(dialog[0]);
                } catch (ConversationEndedException ended) {
                    LOG.deadLetterConversationAlreadyEnded(dialog[0]);
                }
            }
        });
        if (refused != null) {
            String why = why(refused);
            batch.announceOnCommit(() -> LOG.deadLetterNotSent(reader, m.messageSequenceNumber(),
                    m.conversationId(), m.conversationHandle(), service, why));
            return null;
        }
        return conversationId[0];
    }

    /** @return the failure's message, and that of the cleanup that failed after it (SQL Server) */
    private static String why(BrokerException refused) {
        StringBuilder why = new StringBuilder(String.valueOf(refused.getMessage()));
        for (Throwable t : refused.getSuppressed()) {
            why.append("; the dialog could not be ended either: ").append(t.getMessage());
        }
        return why.toString();
    }

    /**
     * Keeps what the bean must see: priority requests are consumed (the scanner reads them where they sit in the
     * queue), and EndDialog or Error end this side when the adapter ends conversations itself.
     */
    Batch setAside(List<BrokerMessage> received) {
        Batch batch = sort(received, Map.of());
        batch.ends.forEach(this::endThisSide);
        return batch;
    }

    /**
     * Ends this side of a conversation whose EndDialog or Error came in. An Error (the other side ended with an
     * error, or the broker failed the dialog) is logged at WARN with its code and description: the bean never sees
     * it, so this is how an initiator's operator learns that the dialog failed.
     */
    void endThisSide(BrokerMessage endDialogOrError) {
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
}
