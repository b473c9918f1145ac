package org.ssbjca.backend;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;

/**
 * The adapter's own bookkeeping next to the broker's queues: failed deliveries per message, dead letters, the
 * conversation group priorities readers honour, and what an operator looks at (pending groups). Runs on the
 * connection it was made for, in that connection's transaction.
 *
 * <p>A message is identified by its conversation handle and sequence number ({@link #key(BrokerMessage)}), which
 * stay the same when a rollback puts it back on its queue and after a restart.
 */
public interface DeliveryLedger {

    /**
     * What {@link #recordUnrecoverable} adds, once, to a message's count of failed deliveries: a count at or over it
     * is over any {@code maxDeliveryAttempts} (at most 100), so the next RECEIVE that takes the message dead-letters
     * it, and it still tells the deliveries really made ({@link #deliveries}).
     */
    int SET_ASIDE = 1_000_000;

    /** The length of the ledger's {@code last_error} columns (in every backend's install script). */
    int ERROR_LENGTH = 4000;

    /**
     * Returns it, cut to what the {@code last_error} columns hold.
     *
     * @param error why a delivery failed, or null
     */
    static String errorText(String error) {
        return error == null || error.length() <= ERROR_LENGTH ? error : error.substring(0, ERROR_LENGTH);
    }

    /**
     * Returns the failed deliveries really made, without the failure policy's mark ({@link #SET_ASIDE}).
     *
     * @param recorded a count as the ledger holds it
     */
    static int deliveries(int recorded) {
        return recorded >= SET_ASIDE ? recorded - SET_ASIDE : recorded;
    }

    /**
     * Returns the key under which its failed deliveries are counted.
     *
     * @param m a message
     */
    static String key(BrokerMessage m) {
        return key(m.conversationHandle(), m.messageSequenceNumber());
    }

    /**
     * Returns the key under which its failed deliveries are counted, as {@link #key(BrokerMessage)}.
     *
     * @param conversationHandle a message's conversation handle
     * @param messageSequenceNumber its sequence number
     */
    static String key(UUID conversationHandle, long messageSequenceNumber) {
        return conversationHandle + "/" + messageSequenceNumber;
    }

    /**
     * Returns their conversation groups, each once, in the order of the messages.
     *
     * @param messages messages
     */
    static java.util.Set<UUID> groupsOf(List<BrokerMessage> messages) {
        java.util.Set<UUID> groups = new java.util.LinkedHashSet<>();
        messages.forEach(m -> groups.add(m.conversationGroupId()));
        return groups;
    }

    /**
     * Returns failed deliveries so far, by {@link #key(BrokerMessage)}; messages without any are absent.
     *
     * @param messages messages just received
     */
    Map<String, Integer> attempts(List<BrokerMessage> messages);

    /**
     * Bounds how long the statements of this ledger's connection wait for a lock: for the rest of its current
     * transaction at least (PostgreSQL, {@code SET LOCAL lock_timeout}), for the rest of its session (H2 and SQL
     * Server, {@code SET LOCK_TIMEOUT}). A wait that runs out fails its statement (PostgreSQL 55P03, H2 50200, SQL
     * Server error 1222), and the caller rolls its transaction back.
     *
     * @param millis the longest wait for one lock, over 0
     */
    void boundLockWaits(int millis);

    /**
     * Counts one more failed delivery; meant for a transaction of its own, after the delivery rolled back.
     *
     * @param queue the message's queue
     * @param message the message
     * @param error why it failed, or null
     * @return the failed deliveries now recorded
     */
    int recordFailure(String queue, BrokerMessage message, String error);

    /**
     * Counts one more failed delivery of a message whose failure the failure policy found unrecoverable, and marks it
     * set aside: {@link #SET_ASIDE} is added to its count unless it already was. As {@link #recordFailure}, meant for a
     * transaction of its own.
     *
     * @param queue the message's queue
     * @param message the message
     * @param error why it failed, or null
     * @return the count now recorded, at least {@link #SET_ASIDE}
     */
    int recordUnrecoverable(String queue, BrokerMessage message, String error);

    /**
     * Holds a conversation group back after a failed delivery (the redelivery delay): until the time is up, the
     * readers' RECEIVE and GET CONVERSATION GROUP of the queue skip it and take other groups; a RECEIVE or GET
     * CONVERSATION GROUP that names the group or one of its conversations still takes it. Meant for the transaction
     * that records the failure, before the delivery's rollback releases the group. A later hold replaces an earlier
     * one; {@link #clearAttempts} ends the holds of the groups it clears.
     *
     * @param queue the group's queue
     * @param group the group
     * @param hold how long from now, by the database's clock
     */
    void holdGroup(String queue, UUID group, java.time.Duration hold);

    /**
     * Forgets the failed deliveries of messages that were just delivered successfully (in the delivery's
     * transaction), and ends the holds of their groups ({@link #holdGroup}).
     *
     * @param messages the messages
     */
    void clearAttempts(List<BrokerMessage> messages);

    /**
     * Stores a message (already received in this transaction) as a dead letter and forgets its attempts.
     *
     * @param queue its queue
     * @param message the message
     * @param attempts how many deliveries failed
     * @param error why, or null for the last error recorded with its failed deliveries
     * @param copyConversationId the conversation id of the dialog that carried its copy to the activation's
     *        dead-letter service, or null when none was sent
     */
    void deadLetter(String queue, BrokerMessage message, int attempts, String error, UUID copyConversationId);

    /**
     * Stores a message as a dead letter without a copy sent anywhere, as {@link #deadLetter(String, BrokerMessage, int,
     * String, UUID)} with no copy's conversation id.
     *
     * @param queue its queue
     * @param message the message
     * @param attempts how many deliveries failed
     * @param error why, or null for the last error recorded with its failed deliveries
     */
    default void deadLetter(String queue, BrokerMessage message, int attempts, String error) {
        deadLetter(queue, message, attempts, error, null);
    }

    /**
     * Returns the queue's dead letters.
     *
     * @param queue a queue
     * @param limit at most this many, oldest first
     */
    default List<DeadLetter> deadLetters(String queue, int limit) {
        return deadLetters(queue, 0, limit);
    }

    /**
     * A page of the queue's dead letters (keyset paging: pass the last id of a page to get the next one).
     *
     * @param queue a queue
     * @param afterId only dead letters with a greater id; 0 for the first page
     * @param limit at most this many, oldest first
     * @return the dead letters
     */
    List<DeadLetter> deadLetters(String queue, long afterId, int limit);

    /** The longest text {@link #findDeadLetters} looks for, in characters. */
    int MAX_SEARCH_LENGTH = 200;

    /**
     * A page of the queue's dead letters that mention a text, for an operator's search and grouping (keyset paging as
     * {@link #deadLetters(String, long, int)}). A letter matches when its last error, service or message type contains
     * the text (ignoring case on H2 and PostgreSQL; on SQL Server as the columns' collation compares, ignoring case
     * under the default collations), or its body contains the text's UTF-8 bytes (exactly, case included). Reads
     * skip, never wait for, the rows a delivery is writing. A read-only statement, in the caller's transaction.
     *
     * @param queue a queue
     * @param text the text, at most {@value #MAX_SEARCH_LENGTH} characters; null or empty for every letter
     * @param bodies whether to read the bodies; without them every message has an empty body
     * @param afterId only dead letters with a greater id; 0 for the first page
     * @param limit at most this many, oldest first
     * @return the dead letters
     */
    List<DeadLetter> findDeadLetters(String queue, String text, boolean bodies, long afterId, int limit);

    /**
     * Removes a dead letter and returns it, in the caller's transaction (for redelivery).
     *
     * @param queue the queue it came from
     * @param id its id
     * @return the dead letter, or null when there is none with that id (already taken)
     */
    DeadLetter takeDeadLetter(String queue, long id);

    /**
     * Returns how many dead letters were deleted.
     *
     * @param queue a queue
     */
    int purgeDeadLetters(String queue);

    /**
     * Returns how many of its messages wait in the dead-letter table.
     *
     * @param queue a queue
     */
    long deadLetterCount(String queue);

    /**
     * Returns how many dead letters were deleted.
     *
     * @param queue a queue
     * @param before dead letters set aside before this instant are deleted
     */
    int purgeDeadLettersBefore(String queue, java.time.Instant before);

    /**
     * Looks at the queue without removing anything: the messages of one type, with their groups, so that priority
     * requests are found wherever they sit in the queue.
     *
     * @param queue the queue
     * @param messageType the priority request message type
     * @return the requests, in queue order
     */
    List<PriorityRequest> priorityRequests(String queue, String messageType);

    /**
     * Returns the priorities recorded for its groups, by group.
     *
     * @param queue a queue
     */
    Map<UUID, Integer> priorities(String queue);

    /**
     * Removes a group's priority once it has no messages left (after a reader processed it).
     *
     * @param queue the group's queue
     * @param group the group
     */
    void clearPriorityIfDrained(String queue, UUID group);

    /**
     * Returns the groups that have messages, with their counts, oldest message time and priority, in the order the
     * readers take them: prioritised groups first (highest priority, then earliest request), then the backend's order
     * (round-robin turn on H2 and PostgreSQL, oldest message first on SQL Server).
     *
     * @param queue a queue
     * @param limit at most this many groups
     */
    List<PendingGroup> pendingGroups(String queue, int limit);

    /**
     * Whether a conversation may still have messages of a type in its queue, without taking them: a reader asks
     * before it takes the rest of a conversation that is about to end, so that it takes nothing when there is no
     * priority request to save. In the caller's transaction.
     *
     * @param handle this side's conversation handle
     * @param messageType the message type
     * @return false only when the backend looked and found none (the portable schema, one indexed probe); true when
     *         it found one, and on SQL Server, where the RECEIVE of the conversation that follows costs one round trip,
     *         as a look would
     */
    boolean mayHaveQueued(UUID handle, String messageType);
}
