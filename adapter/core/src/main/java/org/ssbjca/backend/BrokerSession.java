package org.ssbjca.backend;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;

/**
 * The Service Broker verbs on one connection, in whatever transaction that connection is in. Not thread safe.
 *
 * <p>Errors: a conversation that is unknown or ended raises {@link org.ssbjca.api.ConversationEndedException};
 * everything else raises {@link org.ssbjca.api.BrokerException} with the database's exception as cause.
 */
public interface BrokerSession {

    /**
     * The connection the verbs' transaction is on, for work of the caller's own in it. A session may remember rows its
     * verbs wrote in the transaction (the dialog BEGIN DIALOG just inserted); it forgets them here, since the caller
     * may change them with SQL.
     *
     * @return the connection the verbs run on
     */
    Connection connection();

    /**
     * BEGIN DIALOG CONVERSATION.
     *
     * @param fromService initiating service
     * @param toService target service
     * @param contract contract
     * @param options related group or conversation, lifetime, encryption
     * @return the initiator's side
     */
    Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options);

    /**
     * BEGIN DIALOG and SEND its first message: what {@link #beginDialog} followed by {@link #send} do, which is how
     * a backend without a shorter way does it.
     *
     * @param fromService initiating service
     * @param toService target service
     * @param contract contract
     * @param options related group or conversation, lifetime, encryption
     * @param messageType the message type
     * @param body the body, or null for none
     * @return the initiator's side
     */
    default Conversation beginDialogAndSend(String fromService, String toService, String contract,
            DialogOptions options, String messageType, byte[] body) {
        Conversation conversation = beginDialog(fromService, toService, contract, options);
        send(conversation.handle(), messageType, body);
        return conversation;
    }

    /**
     * SEND ON CONVERSATION handle MESSAGE TYPE type (body).
     *
     * @param handle this side's conversation handle
     * @param messageType the message type
     * @param body the body, or null for none
     */
    void send(UUID handle, String messageType, byte[] body);

    /**
     * Schedules a SEND, in this session's transaction: when due, exactly one node sends it on the conversation in a
     * transaction of its own, as {@link #send} would then. A send that fails when due is dropped and logged.
     *
     * @param handle this side's conversation handle
     * @param messageType the message type
     * @param body the body, or null for none
     * @param due when it is due
     * @return its handle
     * @throws org.ssbjca.api.ConversationEndedException if the conversation is ended or unknown
     */
    default ScheduledSend scheduleSend(UUID handle, String messageType, byte[] body, DueTime due) {
        throw new BrokerException("scheduled sends are not available on this backend");
    }

    /**
     * Cancels a scheduled send, in this session's transaction; waits for a node that is sending it now.
     *
     * @param id the scheduled send's id
     * @return whether it was pending and is now cancelled
     */
    default boolean cancelScheduledSend(UUID id) {
        throw new BrokerException("scheduled sends are not available on this backend");
    }

    /**
     * Runs verbs whose failure the transaction is to outlive (the copy of a dead letter to a dead-letter service):
     * when they throw a {@link BrokerException}, what they wrote is undone and the transaction goes on. The portable
     * schema rolls back to a savepoint taken before them (two round trips more: for verbs that run seldom). By
     * default, where there is no savepoint (SQL Server's distributed transactions refuse SAVE TRANSACTION; its
     * statement errors leave the transaction usable, XACT_ABORT being off), {@code cleanup} undoes what it can. Not
     * nested.
     *
     * @param verbs the verbs, on this session
     * @param cleanup undoes what the verbs wrote where no savepoint does (it may find nothing to undo); when it
     *        fails, its failure is added to the verbs' as suppressed
     * @return null when the verbs succeeded; else what they threw, what they wrote undone
     * @throws BrokerException when they failed and could not be undone (the rollback to the savepoint failed; the
     *         verbs' failure is suppressed in it), or the savepoint could not be taken or released: the transaction
     *         cannot go on
     */
    default BrokerException attempt(Runnable verbs, Runnable cleanup) {
        try {
            verbs.run();
            return null;
        } catch (BrokerException failed) {
            try {
                cleanup.run();
            } catch (BrokerException cleanupFailed) {
                failed.addSuppressed(cleanupFailed);
            }
            return failed;
        }
    }

    /**
     * END CONVERSATION, normally or WITH ERROR.
     *
     * @param handle this side's conversation handle
     * @param errorCode null for a normal end, else the error code (greater than 0)
     * @param errorDescription the error text when {@code errorCode} is set
     */
    void endConversation(UUID handle, Integer errorCode, String errorDescription);

    /**
     * END CONVERSATION ... WITH CLEANUP.
     *
     * @param handle this side's conversation handle
     */
    void endConversationWithCleanup(UUID handle);

    /**
     * BEGIN CONVERSATION TIMER.
     *
     * @param handle this side's conversation handle
     * @param timeout at least one second
     */
    void beginConversationTimer(UUID handle, Duration timeout);

    /**
     * MOVE CONVERSATION handle TO group.
     *
     * @param handle this side's conversation handle
     * @param group target group, in the same queue
     */
    void moveConversation(UUID handle, UUID group);

    /**
     * WAITFOR (GET CONVERSATION GROUP ...), TIMEOUT t.
     *
     * @param queue the queue
     * @param timeout how long to wait, {@link ReceiveRequest#FOREVER} for no limit
     * @return the locked group, or empty
     */
    Optional<UUID> getConversationGroup(String queue, Duration timeout);

    /**
     * WAITFOR (RECEIVE TOP (n) ... FROM queue [WHERE ...]), TIMEOUT t.
     *
     * @param request what to receive
     * @return the messages of one conversation group, in order; empty on timeout
     */
    default List<BrokerMessage> receive(ReceiveRequest request) {
        return receive(request, true, false).messages();
    }

    /**
     * A RECEIVE for an activation's reader, with what it learnt about the queue.
     *
     * @param request what to receive
     * @param priorities false: an unfiltered RECEIVE need not try the prioritised groups first (a hint)
     * @param skipHeld whether an unfiltered RECEIVE leaves out the groups a redelivery delay holds
     *        ({@link DeliveryLedger#holdGroup})
     * @return what it took
     */
    Received receive(ReceiveRequest request, boolean priorities, boolean skipHeld);

    /**
     * Records a priority for a conversation group: readers take higher priorities first.
     *
     * @param group the group
     * @param priority 0 to 255
     */
    void setPriority(UUID group, int priority);

    /**
     * Removes a group's priority entry (done once a reader processed the group).
     *
     * @param group the group
     */
    void clearPriority(UUID group);

    /**
     * Makes a RECEIVE or GET CONVERSATION GROUP that is waiting on another thread return empty at once (and every
     * later wait of this session, too). Called when a reader is stopped; never interrupts threads, since an interrupt
     * can break the JDBC connection. A RECEIVE that the cancellation reaches once it may have taken messages throws
     * {@link ReceiveCancelledException} instead (SQL Server), so that its transaction rolls back.
     */
    void cancel();

    /**
     * Makes a RECEIVE or GET CONVERSATION GROUP that is waiting on another thread return empty now, as if its time
     * had run out; later ones wait as usual. A wake that comes while no wait is in progress may have no effect (or end
     * the next wait at once), so a caller that needs a reader back repeats it until it sees the reader come back.
     * Never interrupts threads. As with {@link #cancel()}, a RECEIVE that may have taken messages throws
     * {@link ReceiveCancelledException} instead.
     */
    void wake();

    /**
     * Lets this session's RECEIVEs read the failed deliveries recorded for the messages they take
     * ({@link Received#recordedAttempts}). Where that costs a statement of its own, only a session told reads them;
     * a backend that reads them in the RECEIVE's own round trip always does. A bean's verbs during a delivery run on
     * the reader's session, told, and pay that statement too.
     */
    default void readAttemptsWithReceive() {
    }

    /**
     * Lets this session hold back a write until the next verb or {@link #flush()} when that saves a round trip (on
     * PostgreSQL: a BEGIN DIALOG in a new group whose declared objects the broker has already found, written
     * together with the dialog's first SEND in one statement). Only an owner that calls {@link #flush()} before
     * every successful end of the session's transaction may call it; a session never told holds nothing back.
     */
    default void deferWrites() {
    }

    /**
     * Tells this session how to learn whether an XA branch of its owner's is open on {@link #connection()}: the
     * owner that enlists the connection in XA transactions calls it once, before the first branch starts. Auto-commit
     * alone does not tell (pgjdbc 42.7.13 and later leave it on inside a branch); a session never told treats
     * auto-commit as outside any transaction.
     *
     * @param branchOpen true between a branch's start and its end; called on the thread that uses the session
     */
    default void knowBranchesBy(BooleanSupplier branchOpen) {
    }

    /**
     * Writes what this session held back ({@link #deferWrites}); nothing when it holds nothing. The owner of the
     * transaction calls it before ending the transaction with success (an XA {@code end} with {@code TMSUCCESS}, a
     * local commit); when it fails, the transaction must roll back.
     *
     * @throws org.ssbjca.api.BrokerException if a held-back verb fails now (its checks, the database): what the verb
     *         would have thrown when called
     */
    default void flush() {
    }

    /**
     * Must be called by the transaction's owner when the transaction of {@link #connection()} ended, so that
     * readers waiting for messages this session sent wake up.
     *
     * @param committed whether it committed
     */
    void afterCompletion(boolean committed);
}
