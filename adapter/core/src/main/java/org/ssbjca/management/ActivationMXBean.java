package org.ssbjca.management;

import java.util.Date;
import java.util.List;

/**
 * One message-driven bean fed from one queue, {@code org.ssbjca:type=Activation,name=<Bean>@<queue>}: its settings
 * (three of them writable, applied while it runs), its counters and timings, the queue as an operator sees it, and
 * operations. It also emits notifications, see {@link ActivationNotifications}.
 *
 * <p>Counters count since the activation started. Attributes that look at the queue ({@code QueueDepth},
 * {@code PendingConversationGroups}, the counts) and the listings read on one of the database's few kept reading
 * connections (no session opened per reading); the operations that change priorities and dead letters each use a
 * short-lived connection to the broker database of their own.
 */
public interface ActivationMXBean extends BreakerMXBean {

    /** Returns the activation's name, {@code Bean@queue}. */
    String getName();

    /** Returns the queue the readers receive from. */
    String getQueue();

    /** Returns the backend kind and the database (JDBC URL and user, passwords masked). */
    String getBackend();

    /**
     * Returns how many readers the activation has (at most this many deliveries at a time), including those still
     * waiting for a thread of the container's work manager ({@link #getWaitingReaders()}).
     */
    int getMaxReaders();

    /**
     * Starts or stops readers at once; a reader that stops finishes its delivery in flight first. A reader the
     * container's work manager refuses (its long-running pool's threads and queue all taken for 10 s) is not added,
     * and is logged (SSBJCA0015): {@link #getMaxReaders()} then reads fewer.
     *
     * @param maxReaders 1 to 256
     */
    void setMaxReaders(int maxReaders);

    /**
     * Returns of {@link #getMaxReaders()}, the readers waiting for a thread of the work manager's long-running pool
     * (its threads all taken, by this and other activations): they read nothing until one frees (SSBJCA0014).
     */
    int getWaitingReaders();

    /** Returns how many readers are delivering to the bean right now. */
    int getActiveReaders();

    /**
     * Returns how many readers wait for {@link #resume()}: equal to MaxReaders (less WaitingReaders, readers with no
     * thread) once a pause took effect.
     */
    int getParkedReaders();

    /** Returns the most messages of one conversation group one RECEIVE takes. */
    int getReceiveBatchSize();

    /** Sets the most messages of one group one RECEIVE takes, 1 to 10000, from each reader's next RECEIVE. */
    void setReceiveBatchSize(int receiveBatchSize);

    /** Returns how long a RECEIVE waits for a message, in milliseconds. */
    long getWaitTimeout();

    /** Sets how long a RECEIVE waits, 100 to 600000 ms, from each reader's next RECEIVE. */
    void setWaitTimeout(long waitTimeout);

    /** Returns whether {@link #pause()} is in effect. */
    boolean isPaused();

    /**
     * Returns messages taken from the queue, each time (one received again after a rollback counts again), including
     * those the bean never sees: priority requests, EndDialog/Error the adapter ends, poison messages.
     */
    long getReceived();

    /** Returns messages the bean processed in deliveries that committed, dead letters redelivered included. */
    long getDelivered();

    /**
     * Returns deliveries that committed having received at least one message: one per transaction whatever its number
     * of messages, and also one whose messages never reached the bean (dead-lettered, priority requests,
     * EndDialog/Error); with commitBeforeDelivery, one per bean call that returned.
     */
    long getCommitted();

    /**
     * Returns deliveries that failed: the bean threw or marked the transaction rollback-only, or the commit failed
     * (redeliveries of dead letters included).
     */
    long getRolledBack();

    /**
     * Returns messages handed to the bean again after failed deliveries counted for them ({@code deliveryAttempt()}
     * above 1), each time and whatever the outcome, and dead letters handed to it by {@link #redeliverDeadLetter}.
     */
    long getRedelivered();

    /** Returns messages moved to the dead-letter table after {@code maxDeliveryAttempts} failed deliveries. */
    long getDeadLettered();

    /**
     * Returns Error messages from the other side of a conversation that the adapter consumed and answered by ending
     * this side ({@code handleSystemMessages = END}); each is also logged at WARN (SSBJCA0044).
     */
    long getErrorsReceived();

    /**
     * Returns priority requests ({@code priorityMessageType}) whose body held no priority from 0 to 255: each was moved
     * to the dead-letter table (also counted in {@link #getDeadLettered()}) and logged at WARN (SSBJCA0045).
     */
    long getPriorityRequestsRejected();

    /** Returns the mean time of a committed delivery (the bean's work and the commit), in milliseconds. */
    double getMeanDeliveryMillis();

    /** Returns the 99th percentile of the latest 1024 delivery times, in milliseconds. */
    double getP99DeliveryMillis();

    /** Returns the last error (a failed delivery, a reader failure: a lost connection, a disabled queue), or null. */
    String getLastError();

    /** Returns when the last error happened, or null. */
    Date getLastErrorTime();

    /**
     * Returns how many messages the queue holds now. On H2 and PostgreSQL this includes the messages of deliveries in
     * progress, since their RECEIVE commits with the delivery; SQL Server reads the queue {@code WITH (NOLOCK)} and
     * does not count them.
     */
    long getQueueDepth();

    /**
     * Returns the conversation groups with messages in the queue (at most 100, in queue order): group id, message
     * count, oldest message time, priority. Like {@code QueueDepth}, on H2 and PostgreSQL it includes the groups being
     * delivered ({@code InFlightDeliveries}). A priority request in the queue that no reader has scanned yet (the
     * activation paused, its readers busy) shows as its group's priority, and places the group where the readers will
     * take it once they scan.
     */
    List<PendingGroupInfo> getPendingConversationGroups();

    /** Returns the deliveries in progress: reader, conversation group, messages, since when. */
    List<InFlightDeliveryInfo> getInFlightDeliveries();

    /**
     * Readers stop taking messages: deliveries in flight finish, a RECEIVE already waiting may still take one
     * message; {@code ParkedReaders} reaches {@code MaxReaders} (less {@code WaitingReaders}) when nothing more is
     * delivered.
     */
    void pause();

    /** Lets paused readers take messages again. */
    void resume();

    /**
     * Gives a conversation group of this queue a priority: readers take groups with a priority first, highest
     * first, and drop the priority once the group has no messages left. Committed at once. Has no effect on the
     * order when the activation's {@code priorityEnabled} is false.
     *
     * @param groupId the conversation group (a UUID, as {@code PendingConversationGroups} shows it)
     * @param priority 0 to 255
     */
    void setPriority(String groupId, int priority);

    /**
     * Returns the queue's dead letters, oldest first.
     *
     * @param max at most this many, 1 to 10000
     */
    List<DeadLetterInfo> listDeadLetters(int max);

    /**
     * A page of the dead letters, for listings longer than one call should return: pass the last id of a page to get
     * the next.
     *
     * @param afterId only dead letters with a greater id; 0 for the first page
     * @param max at most this many, 1 to 10000
     * @return the queue's dead letters after that id, oldest first
     */
    List<DeadLetterInfo> listDeadLettersAfter(long afterId, int max);

    /**
     * Delivers a dead letter to the bean again, in a transaction that takes it out of the dead-letter table; waits
     * for the outcome, at most 30 s. A reader waiting in its RECEIVE is woken for it, so on an activation with a free
     * reader it returns as soon as the bean is done; it waits longer only while every reader is delivering.
     *
     * @param id the dead letter's id, as {@code listDeadLetters} shows it
     * @return true when the bean processed it and it left the table; false when there is no such dead letter on
     *         this queue, or the bean failed again (it stays a dead letter)
     */
    boolean redeliverDeadLetter(long id);

    /** Returns how many dead letters of this queue were deleted. */
    int purgeDeadLetters();

    /**
     * Returns how many were deleted.
     *
     * @param minutes dead letters set aside more than this many minutes ago (0 or more) are deleted
     */
    int purgeDeadLettersOlderThan(long minutes);

    /**
     * Delivers dead letters again, oldest first, one transaction each, as {@link #redeliverDeadLetter} does; stops at
     * the first that fails (it stays a dead letter, and so do the ones after it).
     *
     * @param messageType only dead letters of this message type; empty or null for any
     * @param max at most this many, 1 to 10000
     * @return how many were delivered and committed
     */
    int redeliverDeadLetters(String messageType, int max);

    /** Returns readers waiting to reconnect now (the database unreachable, the queue missing or disabled). */
    int getReconnectingReaders();

    /** Returns reconnections since the activation started: each time a reader failed and waited to connect again. */
    long getReconnects();

    /**
     * Returns since when the readers have been failing with no reader's turn succeeding in between, or null while they
     * read: what the readiness check compares with its threshold.
     */
    Date getFailingSince();

    /** Returns whether the readers found the queue disabled (and have not read it since). */
    boolean isQueueDisabled();

    /**
     * Returns since when the readers have found the queue disabled and parked (one of them looking again every 2 s), or
     * null while it is not: on SQL Server, poison detection disables a queue after five rolled back transactions that
     * received from it.
     */
    Date getQueueDisabledSince();

    /**
     * Enables the queue again (SQL Server: {@code ALTER QUEUE ... WITH STATUS = ON}; H2 and PostgreSQL: the
     * portable schema's {@code is_receive_enabled}), committed before it returns, and lets the parked readers read
     * at once. Look at {@link #lastFailedDelivery()} first: a poison message disables the queue again after five more
     * rollbacks.
     */
    void enableQueue();

    /**
     * Returns the failed delivery the adapter counted last on the queue (conversation, message, attempts, last error):
     * after a queue was disabled by poison detection, the message that most likely caused it (SQL Server records none
     * itself); null when the adapter counted none (the rollbacks were another program's).
     */
    String lastFailedDelivery();

    /**
     * Returns the database's transmission queue, the oldest first: to service, conversation, enqueue time,
     * transmission_status and what to do about it.
     *
     * @param max at most this many, 1 to 1000
     */
    List<StuckTransmissionInfo> listStuckTransmissions(int max);

    /**
     * Returns the database's transmission-queue messages with a {@code transmission_status} (SQL Server: the broker
     * tried and could not send them; H2 and PostgreSQL: they wait for a disabled queue), read on each call.
     */
    long getStuckTransmissionCount();

    /**
     * Returns committed deliveries since the activation started, all timed (the count behind {@link
     * #getMeanDeliveryMillis()}).
     */
    long getTimedDeliveries();

    /** Returns their total time in milliseconds (with {@link #getTimedDeliveries()}: a summary's sum and count). */
    double getTotalDeliveryMillis();

    /**
     * Returns the age of the queue's oldest message in seconds, 0 when it is empty (read at most every 5 s, like the
     * next four).
     */
    long getOldestMessageAgeSeconds();

    /** Returns conversation groups with messages in the queue. */
    long getPendingConversationGroupCount();

    /** Returns the queue's messages waiting in the dead-letter table. */
    long getDeadLetterCount();

    /**
     * Returns messages in the database's transmission queue (always 0 on H2 and PostgreSQL but for disabled queues).
     */
    long getTransmissionQueueDepth();

    /**
     * Returns the database's conversation endpoints by service and state (all of them, not only this queue's services).
     */
    List<ConversationCountInfo> getConversationEndpoints();

    /**
     * Lists the database's conversation endpoints begun more than {@code olderThanMinutes} ago, by service and state:
     * the fire-and-forget leaks to look at before {@link #endConversations}.
     *
     * @param olderThanMinutes 0 for all of them, up to 5256000 (10 years)
     * @return one entry per service and state
     */
    List<ConversationCountInfo> listConversations(long olderThanMinutes);

    /**
     * Ends WITH CLEANUP, 500 to a transaction, the oldest endpoints of one service in one state begun more than
     * {@code olderThanMinutes} ago: no message is sent to the other side, messages of those conversations still in
     * the database's queues are deleted. Give as {@code max} the count {@link #listConversations} showed: that is the
     * confirmation; no more than that many are ended.
     *
     * @param service the service of this side, as listed
     * @param state its state code, as listed (SO, SI, CO, DI, DO, ER)
     * @param olderThanMinutes as for {@link #listConversations}
     * @param max at most this many, 1 to 100000
     * @return how many were ended
     */
    int endConversations(String service, String state, long olderThanMinutes, int max);

    /**
     * The dead letters grouped by failure: the exception class and its message with numbers, UUIDs and quoted values
     * replaced, so that one cause makes one group. Reads the oldest {@code scanMax} letters, without their bodies.
     *
     * @param scanMax how many dead letters to read at most (1 to 10000)
     * @return the groups, the largest first
     */
    List<DeadLetterGroupInfo> listDeadLetterGroups(int scanMax);

    /**
     * The dead letters whose last error, service or message type contains a text (case ignored, on SQL Server as the
     * columns' collation compares), or whose body contains its UTF-8 bytes (case kept); paged as
     * {@link #listDeadLettersAfter}.
     *
     * @param text the text, at most 200 characters; empty for all
     * @param afterId only dead letters with a greater id; 0 for the first page
     * @param max at most this many (1 to 1000)
     * @return the dead letters found, oldest first
     */
    List<DeadLetterInfo> searchDeadLetters(String text, long afterId, int max);

    /**
     * Returns its whole body, as the bean would receive it.
     *
     * @param id a dead letter's id
     */
    byte[] exportDeadLetterBody(long id);

    /**
     * Starts redelivering a group's dead letters, oldest first, at most {@code messagesPerSecond}, in the background
     * (as {@link #redeliverDeadLetter}, one transaction each; one that fails again stays and the job goes on). One
     * redelivery job runs at a time per activation; it lives in memory only, and a restart or redeploy ends it.
     *
     * @param key the group's key, as {@link #listDeadLetterGroups} shows it
     * @param max at most this many of its letters (1 to 10000), among the 10000 oldest dead letters
     * @param messagesPerSecond the rate, over 0 and at most 1000
     * @return the job's progress
     */
    RedeliveryJobInfo startGroupRedelivery(String key, int max, double messagesPerSecond);

    /**
     * As {@link #startGroupRedelivery}, for chosen dead letters, in the order given.
     *
     * @param ids the dead letters' ids (1 to 10000 of them)
     * @param messagesPerSecond the rate, over 0 and at most 1000
     * @return the job's progress
     */
    RedeliveryJobInfo startRedelivery(long[] ids, double messagesPerSecond);

    /** Returns the running or last redelivery job's progress, or null when none was started since deployment. */
    RedeliveryJobInfo getRedeliveryJob();

    /** Returns whether a running redelivery job was asked to stop (the letter in progress finishes). */
    boolean cancelRedelivery();
}
