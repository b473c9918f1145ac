package org.ssbjca.api;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A connection to the broker: the Service Broker verbs, run in the caller's transaction.
 *
 * <p>Transaction contract: inside a JTA transaction every verb is part of that transaction (the connection is an XA
 * resource): a SEND in a transaction that rolls back is never delivered. Outside a JTA transaction each verb
 * commits on its own.
 *
 * <p>Threading: a connection is used by one thread at a time. Close it (try-with-resources) when done; a closed
 * connection, or one the container took back, throws {@link BrokerException} from every method.
 *
 * <pre>{@code
 * try (ServiceBrokerConnection c = factory.getConnection()) {
 *     Conversation dialog = c.beginDialog("ClientService", "OrderService", "OrderContract");
 *     c.send(dialog, "OrderRequest", "<order id='42'/>".getBytes(StandardCharsets.UTF_8));
 * }
 * }</pre>
 */
public interface ServiceBrokerConnection extends AutoCloseable {

    /**
     * BEGIN DIALOG CONVERSATION with default options (ENCRYPTION = OFF).
     *
     * @param fromService the initiating service, in this database
     * @param toService the target service name
     * @param contract the contract both services support
     * @return the initiator's side of the new dialog
     */
    default Conversation beginDialog(String fromService, String toService, String contract) {
        return beginDialog(fromService, toService, contract, DialogOptions.defaults());
    }

    /**
     * BEGIN DIALOG CONVERSATION.
     *
     * @param fromService the initiating service, in this database
     * @param toService the target service name
     * @param contract the contract both services support
     * @param options related group or conversation, lifetime, encryption
     * @return the initiator's side of the new dialog
     */
    Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options);

    /**
     * BEGIN DIALOG CONVERSATION and SEND its first message, in the caller's transaction: the same dialog, the same
     * message and the same refusals as {@link #beginDialog(String, String, String, DialogOptions)} followed by
     * {@link #send(Conversation, String, byte[])}, in fewer round trips where the backend can (one statement on
     * PostgreSQL instead of two). A refusal of the SEND leaves the dialog begun, as the two calls would.
     *
     * @param fromService the initiating service, in this database
     * @param toService the target service name
     * @param contract the contract both services support
     * @param options related group or conversation, lifetime, encryption
     * @param messageType a message type the contract lets the initiator send
     * @param body the body, or null (or empty) for none
     * @return the initiator's side of the new dialog
     */
    default Conversation beginDialogAndSend(String fromService, String toService, String contract,
            DialogOptions options, String messageType, byte[] body) {
        Conversation conversation = beginDialog(fromService, toService, contract, options);
        send(conversation, messageType, body);
        return conversation;
    }

    /**
     * SEND ON CONVERSATION ... MESSAGE TYPE ... (body).
     *
     * @param conversation this side of the conversation
     * @param messageType a message type the contract allows this side to send
     * @param body the body, or null (or empty) for none
     * @throws ConversationEndedException if the conversation is ended or unknown
     */
    void send(Conversation conversation, String messageType, byte[] body);

    /**
     * Schedules a SEND: the message is sent on the conversation once {@code delay} has passed, not before. See
     * {@link #sendAt(Conversation, String, byte[], Instant)} for the contract; the due instant is taken from the
     * database's clock (the adapter's on the portable schema) when this call runs.
     *
     * @param conversation this side of the conversation
     * @param messageType a message type the contract allows this side to send
     * @param body the body, or null (or empty) for none
     * @param delay how long from now, zero or more
     * @return the handle that cancels it
     * @throws IllegalArgumentException if the delay is negative (the message names it)
     * @throws NullPointerException if the conversation, the message type or the delay is null (the message names it)
     * @throws ConversationEndedException if the conversation is ended or unknown now
     */
    ScheduledSend send(Conversation conversation, String messageType, byte[] body, Duration delay);

    /**
     * Schedules a SEND at an instant: durable, and part of the caller's transaction like {@link #send}: when that
     * transaction rolls back nothing is scheduled. When the instant comes, exactly one node of the cluster sends the
     * message on the conversation, in a transaction of its own, as {@link #send} would then: it takes its place in the
     * conversation's order at that moment, after every message the conversation sent before then, including ones sent
     * after this call; messages sent earlier are not held back by it. Several sends due at the same instant on one
     * conversation are sent in the order they were scheduled. It is received no earlier than its instant and,
     * while a reader of the database waits, soon after it (the backend's guide page gives the bound).
     * A send that fails when due (the conversation ended meanwhile, the message type is not in the contract) is
     * dropped and logged; the checks of this call are those that can be made now (the conversation).
     *
     * @param conversation this side of the conversation
     * @param messageType a message type the contract allows this side to send
     * @param body the body, or null (or empty) for none
     * @param at when; an instant already past is due at once
     * @return the handle that cancels it
     * @throws NullPointerException if the conversation, the message type or the instant is null (the message names it)
     * @throws ConversationEndedException if the conversation is ended or unknown now
     */
    ScheduledSend sendAt(Conversation conversation, String messageType, byte[] body, Instant at);

    /**
     * Cancels a scheduled send, in the caller's transaction: when that commits the message is never sent.
     *
     * <p>A cancel racing the send that comes due has one winner. A cancel that meets the send being sent waits for
     * that transaction to end: false once it committed (the message is delivered), true if it rolled back. A send
     * that comes due while a cancel holds it is left alone until the cancel's transaction ends: sent then only if
     * that transaction rolled back. So true means the message is never delivered once the caller's transaction
     * commits; false means it was sent (or dropped, failing), cancelled already, or never scheduled.
     *
     * @param scheduled a handle from {@link #sendAt} or the {@code send} that takes a delay, perhaps of another
     *        connection or node
     * @return true if it was still pending and is now cancelled; false if it was sent already, cancelled already, or
     *         never scheduled (its transaction rolled back)
     */
    boolean cancel(ScheduledSend scheduled);

    /**
     * Sends text encoded as UTF-8.
     *
     * @param conversation this side of the conversation
     * @param messageType a message type the contract allows this side to send
     * @param text the body text
     */
    void sendText(Conversation conversation, String messageType, String text);

    /**
     * END CONVERSATION: ends this side normally; the other side receives EndDialog.
     *
     * @param conversation this side of the conversation
     */
    void endConversation(Conversation conversation);

    /**
     * END CONVERSATION ... WITH ERROR = code DESCRIPTION = description: the other side receives an Error message.
     *
     * @param conversation this side of the conversation
     * @param code the error code, greater than 0
     * @param description the error text, at most 3000 characters
     */
    void endConversationWithError(Conversation conversation, int code, String description);

    /**
     * END CONVERSATION ... WITH CLEANUP: removes this side and its messages without telling the other side. For
     * conversations that cannot complete normally; never part of a normal message exchange.
     *
     * @param conversation this side of the conversation
     */
    void endConversationWithCleanup(Conversation conversation);

    /**
     * BEGIN CONVERSATION TIMER: after the timeout this side receives a DialogTimer message. Setting a timer again
     * replaces the previous one.
     *
     * @param conversation this side of the conversation
     * @param timeout at least one second
     */
    void beginConversationTimer(Conversation conversation, Duration timeout);

    /**
     * MOVE CONVERSATION: puts this side of the conversation into another conversation group of the same queue.
     *
     * @param conversation this side of the conversation
     * @param targetGroup the conversation group to move it to
     */
    void moveConversation(Conversation conversation, UUID targetGroup);

    /**
     * WAITFOR (GET CONVERSATION GROUP ... FROM queue), TIMEOUT t: locks the next conversation group that has
     * messages, until the transaction ends, without receiving anything.
     *
     * @param queue the queue name
     * @param timeout how long to wait; {@link Duration#ZERO} for no waiting
     * @return the locked group, or empty when none became available in time
     */
    Optional<UUID> getConversationGroup(String queue, Duration timeout);

    /**
     * WAITFOR (RECEIVE TOP (n) ... FROM queue [WHERE ...]), TIMEOUT t: removes and returns messages of one
     * conversation group, in order, and locks that group until the transaction ends.
     *
     * @param request queue, batch size, timeout, optional conversation or group filter
     * @return the messages, in order; empty when none arrived in time
     */
    List<BrokerMessage> receive(ReceiveRequest request);

    /**
     * Sets the priority of a conversation group: the adapter's readers take groups with a higher priority first
     * (then those that waited longest). The entry is removed once the group has been processed.
     *
     * @param conversationGroupId the group
     * @param priority 0 (lowest) to 255 (highest)
     */
    void setPriority(UUID conversationGroupId, int priority);

    /**
     * The JDBC connection this broker connection uses, to read and write the application's own tables in the same
     * database and the same transaction. The returned object refuses {@code close}, {@code commit},
     * {@code rollback} and {@code setAutoCommit}: the transaction belongs to the container or to this connection.
     *
     * <p>Taken in a delivery of this adapter (a bean handling a message, in the delivery's transaction), it is the
     * delivery's own connection: the bean's SQL commits with the message, in one branch. It works only on the
     * delivery's thread, in its transaction, until the delivery ends; a call elsewhere throws
     * {@link java.sql.SQLException}. Taken outside
     * a delivery, it is this connection's, in the caller's JTA transaction (enlisted as its branch), or outside one
     * in auto-commit.
     *
     * @return a guarded view of the underlying JDBC connection, valid until this connection is closed
     */
    Connection jdbcConnection();

    /** Returns the connection to the pool. Idempotent. */
    @Override
    void close();
}
