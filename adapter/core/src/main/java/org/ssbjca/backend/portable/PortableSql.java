package org.ssbjca.backend.portable;

import java.util.List;
import org.ssbjca.backend.DeliveryLedger;

/**
 * The statements the adapter runs on the portable broker schema that H2 and PostgreSQL share; {@link PostgresSql} and
 * {@link H2Sql} add what each spells its own way or alone has, and say which ways of working they have (the
 * capabilities below). The tests' administration is in the test kit's {@code PortableKitSql}. Names of queues,
 * services, contracts and message types are always bound as parameters: they are data here, never identifiers.
 * Immutable and thread safe.
 */
abstract sealed class PortableSql permits PostgresSql, H2Sql {

    /** The version of the installed schema, 0 when none is recorded. */
    static final String SCHEMA_VERSION = "SELECT COALESCE(MAX(version), 0) FROM ssb.schema_version";

    static final String ENDPOINT_COLUMNS = "conversation_handle, conversation_id, is_initiator, conversation_group_id,"
            + " service_name, far_service, service_contract_name, state, send_sequence, lifetime_expires_at";

    /**
     * A savepoint before verbs whose failure is undone ({@code PortableSession.attempt}), the rollback to it, its
     * release: the same on H2 and PostgreSQL. Run as SQL on the verbs' statements, not through
     * {@link java.sql.Connection#setSavepoint}, which pgjdbc's XA handle is written to refuse while a branch is active.
     */
    static final String SAVEPOINT = "SAVEPOINT ssb_attempt";
    static final String ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT ssb_attempt";
    static final String RELEASE_SAVEPOINT = "RELEASE SAVEPOINT ssb_attempt";

    /**
     * Returns the statement that enables a disabled queue again, for an operator to run: the adapter never runs it
     * (nor disables a queue); it is named in a {@link org.ssbjca.api.QueueDisabledException}'s message.
     *
     * @param queue a queue of the portable schema
     */
    static String enableQueue(String queue) {
        return "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
                + queue.replace("'", "''") + "'";
    }

    /** Returns the exception for a disabled queue of the portable schema, naming {@link #enableQueue}. */
    static org.ssbjca.api.QueueDisabledException queueDisabled(String queue) {
        return new org.ssbjca.api.QueueDisabledException(queue, enableQueue(queue), null);
    }

    // ---- declared objects
    final String contractExists = "SELECT 1 FROM ssb.contract WHERE contract_name = ?";
    final String messageTypeExists = "SELECT 1 FROM ssb.message_type WHERE message_type_name = ?";
    final String queueEnabled = "SELECT is_receive_enabled FROM ssb.service_queue WHERE queue_name = ?";
    /**
     * BEGIN DIALOG's checks in one round trip. Parameters: initiator service, target service, contract. Columns: the
     * initiator service's queue (null when there is no such service), whether the target service exists, whether the
     * contract exists.
     */
    final String dialogChecks = "SELECT (SELECT queue_name FROM ssb.service WHERE service_name = ?) AS from_queue,"
            + " EXISTS (SELECT 1 FROM ssb.service WHERE service_name = ?) AS target_exists,"
            + " EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = ?) AS contract_exists";
    /**
     * A service's queue and whether that queue receives, in one round trip (no row: no such service; a null state:
     * no such queue). Parameter: service.
     */
    final String serviceQueueState = "SELECT s.queue_name, q.is_receive_enabled FROM ssb.service s"
            + " LEFT JOIN ssb.service_queue q ON q.queue_name = s.queue_name WHERE s.service_name = ?";
    final String queueNames = "SELECT queue_name FROM ssb.service_queue ORDER BY queue_name";
    /**
     * What a SEND reads of the declared objects, in one round trip: the contract's rule for the message type, whether
     * the type exists, and the target service's queue, whether that service accepts the contract and whether its
     * queue receives. Parameters: message type, contract, contract, message type, target service. Columns: sent_by
     * and validation (null: the contract has no such type), the type exists, the target's queue (null: no such
     * service), it accepts the contract, the queue receives (null: no such queue).
     */
    final String sendChecks = "SELECT r.sent_by, r.validation,"
            + " EXISTS (SELECT 1 FROM ssb.message_type WHERE message_type_name = ?) AS type_exists, s.queue_name,"
            + " EXISTS (SELECT 1 FROM ssb.service_contract sc WHERE sc.service_name = s.service_name"
            + " AND sc.contract_name = ?) AS accepts, q.is_receive_enabled AS receives FROM (SELECT 1 AS one) x"
            + " LEFT JOIN (SELECT cm.sent_by, mt.validation FROM ssb.contract_message_type cm"
            + " JOIN ssb.message_type mt ON mt.message_type_name = cm.message_type_name"
            + " WHERE cm.contract_name = ? AND cm.message_type_name = ?) r ON 1 = 1"
            + " LEFT JOIN ssb.service s ON s.service_name = ?"
            + " LEFT JOIN ssb.service_queue q ON q.queue_name = s.queue_name";

    // ---- conversation groups
    final String groupQueue = "SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ?";
    final String tryLockGroup = "SELECT conversation_group_id FROM ssb.conversation_group"
            + " WHERE conversation_group_id = ? FOR UPDATE SKIP LOCKED";
    final String lockGroup = "SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ? FOR UPDATE";
    final String nextTurn;
    /**
     * Added to a group's turn where drained groups are parked ({@link #parksDrainedGroups}): a parked group sorts
     * after every group with a turn, and the round-robin pick stops before the parked ones ({@code turn < PARKED}). A
     * SEND to a parked group gives it a turn again in its transaction ({@link #insertMessage}); the race with the
     * RECEIVE that parks it is closed after both commits by {@link PostgresSql#unparkGroups}, and a periodic repair
     * is the backstop.
     */
    static final long PARKED = 1L << 62;
    /** MOVE CONVERSATION into a group this transaction holds: a turn again if it has messages. Parameter: group. */
    final String unparkHeld;
    /**
     * Groups with messages that no redelivery delay holds, in round-robin order, after a given turn (keyset paging).
     * Parameters: queue, turn, now, limit.
     */
    final String candidateGroups = "SELECT g.conversation_group_id, g.turn FROM ssb.conversation_group g"
            + " WHERE g.queue_name = ? AND g.turn > ? AND g.turn < " + PARKED
            + " AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id)"
            + " AND " + NOT_HELD.replace("{group}", "g.conversation_group_id")
            + " ORDER BY g.turn LIMIT ?";
    /**
     * Prioritised groups with messages that no redelivery delay holds, highest priority first, then earliest
     * request. Parameters: queue, now, limit.
     */
    final String priorityCandidates = "SELECT p.conversation_group_id FROM ssb.conversation_priority p"
            + " WHERE p.queue_name = ?"
            + " AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = p.conversation_group_id)"
            + " AND " + NOT_HELD.replace("{group}", "p.conversation_group_id")
            + " ORDER BY p.priority DESC, p.request_order LIMIT ?";
    /** Deletes a group no endpoint uses any more; run after {@link #tryLockGroup} succeeded. */
    final String deleteUnusedGroup = "DELETE FROM ssb.conversation_group WHERE conversation_group_id = ?"
            + " AND NOT EXISTS (SELECT 1 FROM ssb.conversation_endpoint e WHERE e.conversation_group_id = ?)";

    // ---- endpoints
    final String insertEndpoint = "INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS
            + ", created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)";
    /** Both sides of the conversation a handle belongs to, locked, in one statement (always the same order). */
    final String lockConversation = "SELECT " + ENDPOINT_COLUMNS + " FROM ssb.conversation_endpoint"
            + " WHERE conversation_id = (SELECT conversation_id FROM ssb.conversation_endpoint"
            + " WHERE conversation_handle = ?) FOR UPDATE";
    final String endpointGroup = "SELECT conversation_group_id, state FROM ssb.conversation_endpoint"
            + " WHERE conversation_handle = ?";
    final String updateSendSequence =
            "UPDATE ssb.conversation_endpoint SET send_sequence = ?, state = ? WHERE conversation_handle = ?";
    /** The tables of declared objects, each with the trigger of {@code sql/portable/postgresql-catalog-version.sql}. */
    static final List<String> CATALOG_TABLES = List.of("message_type", "contract",
            "contract_message_type", "service_queue", "service", "service_contract");
    final String updateState = "UPDATE ssb.conversation_endpoint SET state = ? WHERE conversation_handle = ?";
    final String deleteEndpoint = "DELETE FROM ssb.conversation_endpoint WHERE conversation_handle = ?";
    final String setTimer = "UPDATE ssb.conversation_endpoint SET timer_expires_at = ? WHERE conversation_handle = ?";
    final String moveEndpoint =
            "UPDATE ssb.conversation_endpoint SET conversation_group_id = ? WHERE conversation_handle = ?";
    final String dueTimers = "SELECT conversation_handle, conversation_group_id, service_name FROM"
            + " ssb.conversation_endpoint WHERE timer_expires_at <= ? FOR UPDATE SKIP LOCKED";
    /**
     * Whether a timer or lifetime is due: read without locking, to decide whether a housekeeping pass is needed. The
     * first in the index's order, so that it is a probe of the index whatever the statistics say.
     */
    final String anyTimerDue = "SELECT 1 FROM ssb.conversation_endpoint WHERE timer_expires_at <= ?"
            + " ORDER BY timer_expires_at FETCH FIRST 1 ROWS ONLY";
    final String anyLifetimeDue = "SELECT 1 FROM ssb.conversation_endpoint WHERE lifetime_expires_at <= ?"
            + " ORDER BY lifetime_expires_at FETCH FIRST 1 ROWS ONLY";
    final String clearTimer = "UPDATE ssb.conversation_endpoint SET timer_expires_at = NULL WHERE conversation_handle = ?";
    final String dueLifetimes = "SELECT conversation_handle FROM ssb.conversation_endpoint"
            + " WHERE lifetime_expires_at <= ? FOR UPDATE SKIP LOCKED";
    final String expireEndpoint = "UPDATE ssb.conversation_endpoint SET state = 'ER', lifetime_expires_at = NULL,"
            + " timer_expires_at = NULL WHERE conversation_handle = ?";

    // ---- messages
    /**
     * Returns the columns every query of messages returns first, in this order, from message {@code m} and its
     * endpoint {@code e}: read by position ({@link MessageStore}), the enqueue time as {@code dialect} writes it
     * ({@link Dialect#enqueuedAt}).
     */
    static String messageColumns(Dialect dialect) {
        return String.join(", ", messageColumnList(dialect));
    }

    private static List<String> messageColumnList(Dialect dialect) {
        return List.of("m.queuing_order", "m.conversation_group_id", "m.conversation_handle",
                "m.message_sequence_number", "m.message_type_name", "m.message_body",
                dialect.enqueuedAt + " AS enqueued_at", "e.conversation_id", "e.service_name",
                "e.service_contract_name", "m.trace_context");
    }

    /** How many columns {@link #messageColumns} names, on every dialect. */
    static final int MESSAGE_COLUMN_COUNT = messageColumnList(Dialect.H2).size();
    final String messagesOfGroup;
    final String messagesOfConversation;
    final String deleteMessages = "DELETE FROM ssb.message WHERE queuing_order = ANY (?)";
    final String deleteMessagesOfConversation = "DELETE FROM ssb.message WHERE conversation_handle = ?";
    final String moveMessages = "UPDATE ssb.message SET conversation_group_id = ? WHERE conversation_handle = ?";
    final String queueDepth = "SELECT COUNT(*) FROM ssb.message WHERE queue_name = ?";
    final String oldestMessage = "SELECT MIN(enqueued_at) AS oldest FROM ssb.message WHERE queue_name = ?";
    final String pendingGroupCount = "SELECT COUNT(DISTINCT conversation_group_id) FROM ssb.message"
            + " WHERE queue_name = ?";
    final String transmissionQueueDepth = "SELECT COUNT(*) FROM ssb.transmission_queue";
    /** Parameters: all (boolean), begun before. */
    final String conversationEndpoints = "SELECT service_name, state, COUNT(*) AS n, MIN(created_at) AS oldest"
            + " FROM ssb.conversation_endpoint WHERE ? OR created_at < ? GROUP BY service_name, state"
            + " ORDER BY service_name, state";
    /** Parameters: service, state, all (boolean), begun before, limit. */
    final String conversationHandles = "SELECT conversation_handle FROM ssb.conversation_endpoint"
            + " WHERE service_name = ? AND state = ? AND (? OR created_at < ?) ORDER BY created_at LIMIT ?";

    // ---- transmission queue (messages for a disabled queue)
    final String insertTransmission = "INSERT INTO ssb.transmission_queue (from_handle, to_handle, to_queue_name,"
            + " message_sequence_number, message_type_name, message_body, enqueued_at, transmission_status)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    final String deleteTransmissionsFrom = "DELETE FROM ssb.transmission_queue WHERE from_handle = ?";
    final String deleteTransmissionsTo = "DELETE FROM ssb.transmission_queue WHERE to_handle = ?";
    /**
     * The enabled queues that have messages in the transmission queue ({@link Transmissions}): one probe of
     * {@code transmission_queue_to} per enabled queue, nothing read when the transmission queue is empty.
     */
    final String transmissionsDue = "SELECT q.queue_name FROM ssb.service_queue q WHERE q.is_receive_enabled"
            + " AND EXISTS (SELECT 1 FROM ssb.transmission_queue t WHERE t.to_queue_name = q.queue_name)"
            + " ORDER BY q.queue_name";
    /** For one queue: a row when it is enabled and has messages in the transmission queue. Parameter: queue. */
    final String transmissionsDueTo = "SELECT 1 FROM ssb.service_queue q WHERE q.queue_name = ?"
            + " AND q.is_receive_enabled"
            + " AND EXISTS (SELECT 1 FROM ssb.transmission_queue t WHERE t.to_queue_name = q.queue_name)";

    /**
     * Bounds the lock waits of a move of transmissions, as {@link #lockWait}: a page moved for a reader fails at once
     * on a row an uncommitted END CONVERSATION deletes instead of holding the RECEIVE; a background move waits longer.
     *
     * @param millis the longest wait for a lock, a number the adapter chose
     * @return the statement
     */
    String moveLockWait(int millis) {
        return lockWait(millis);
    }

    /**
     * The target endpoint of a transmission being moved, locked ({@code Transmissions.move}): its group and state as
     * committed now, so that an END CONVERSATION or MOVE CONVERSATION of that side waits for the move's commit, or the
     * move for theirs, and sees what it did. Parameter: the handle. Columns: conversation_group_id, state.
     */
    final String lockTargetEndpoint = "SELECT conversation_group_id, state FROM ssb.conversation_endpoint"
            + " WHERE conversation_handle = ? FOR UPDATE";
    /**
     * Locks a queue's row while it is enabled, never waiting: the transaction that moves a page of the queue's
     * transmissions holds it, so that one mover at a time (of any node) takes them, the oldest first, in the order
     * they were sent. Parameter: queue.
     */
    final String lockEnabledQueue = "SELECT queue_name FROM ssb.service_queue WHERE queue_name = ?"
            + " AND is_receive_enabled FOR UPDATE SKIP LOCKED";
    /**
     * A queue's next transmissions in the order they were sent, with the target endpoint's group and state (null when
     * the endpoint no longer exists). Parameters: queue, after this transmission order, limit.
     */
    final String pendingTransmissions = "SELECT t.transmission_order, t.to_handle, t.message_sequence_number,"
            + " t.message_type_name, t.message_body, e.conversation_group_id, e.state FROM ssb.transmission_queue t"
            + " LEFT JOIN ssb.conversation_endpoint e ON e.conversation_handle = t.to_handle"
            + " WHERE t.to_queue_name = ? AND t.transmission_order > ? ORDER BY t.transmission_order LIMIT ?";
    /** Takes one transmission out (its update count says whether it was still there). Parameter: transmission order. */
    final String deleteTransmission = "DELETE FROM ssb.transmission_queue WHERE transmission_order = ?";

    // ---- scheduled sends ({@link ScheduledSends})
    /** Parameters: id, conversation handle, message type, body, due at, scheduled at. */
    final String insertScheduledSend = "INSERT INTO ssb.scheduled_send (scheduled_id, conversation_handle,"
            + " message_type_name, message_body, due_at, scheduled_at) VALUES (?, ?, ?, ?, ?, ?)";
    /** Sets when one is due (a pass that holds it tries it again then). Parameters: due at, id. */
    final String postponeScheduledSend = "UPDATE ssb.scheduled_send SET due_at = ? WHERE scheduled_id = ?";
    /** Cancels one (its update count says whether it was pending); waits for a pass that is sending it. */
    final String deleteScheduledSend = "DELETE FROM ssb.scheduled_send WHERE scheduled_id = ?";
    /**
     * When the earliest scheduled send is due (due already, or the next): read without locking, a probe of {@code
     * scheduled_send_due}.
     */
    final String firstScheduledSendDue = "SELECT due_at FROM ssb.scheduled_send ORDER BY due_at FETCH FIRST 1 ROWS ONLY";
    /** When the next scheduled send is due after an instant, read without locking. Parameter: the instant. */
    final String nextScheduledSendDue = "SELECT due_at FROM ssb.scheduled_send WHERE due_at > ?"
            + " ORDER BY due_at FETCH FIRST 1 ROWS ONLY";
    /**
     * The due scheduled sends no other pass holds, locked, in the order they are due and then were scheduled.
     * Parameters: now, limit.
     */
    final String dueScheduledSends = "SELECT scheduled_id, conversation_handle, message_type_name, message_body,"
            + " due_at FROM ssb.scheduled_send WHERE due_at <= ? ORDER BY due_at, schedule_order"
            + " FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED";

    // ---- priorities
    final String deletePriority = "DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?";
    final String insertPriority;

    // ---- delivery ledger
    final String attemptsOf = "SELECT conversation_handle, message_sequence_number, attempts FROM ssb.delivery_attempt"
            + " WHERE conversation_handle = ? AND message_sequence_number = ?";
    final String incrementAttempts = "UPDATE ssb.delivery_attempt SET attempts = attempts + 1, last_error = ?,"
            + " last_attempt_at = ? WHERE conversation_handle = ? AND message_sequence_number = ?";
    /** Marks a message set aside by the failure policy ({@link DeliveryLedger#SET_ASIDE}); parameters: its key. */
    final String markSetAside = "UPDATE ssb.delivery_attempt SET attempts = attempts + " + DeliveryLedger.SET_ASIDE
            + " WHERE conversation_handle = ? AND message_sequence_number = ? AND attempts < "
            + DeliveryLedger.SET_ASIDE;
    final String insertAttempt = "INSERT INTO ssb.delivery_attempt (conversation_handle, message_sequence_number,"
            + " queue_name, attempts, last_error, last_attempt_at) VALUES (?, ?, ?, 1, ?, ?)";
    final String deleteAttempt =
            "DELETE FROM ssb.delivery_attempt WHERE conversation_handle = ? AND message_sequence_number = ?";
    final String updateHold = "UPDATE ssb.conversation_hold SET held_until = ? WHERE conversation_group_id = ?";
    final String insertHold = "INSERT INTO ssb.conversation_hold (conversation_group_id, queue_name, held_until)"
            + " VALUES (?, ?, ?)";
    final String deleteHold = "DELETE FROM ssb.conversation_hold WHERE conversation_group_id = ?";
    final String deleteAttemptsOfConversation = "DELETE FROM ssb.delivery_attempt WHERE conversation_handle = ?";
    final String insertDeadLetter = "INSERT INTO ssb.dead_letter (queue_name, conversation_group_id,"
            + " conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name,"
            + " service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at,"
            + " copy_conversation_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT a.last_error FROM ssb.delivery_attempt a"
            + " WHERE a.conversation_handle = ? AND a.message_sequence_number = ?)), ?, ?)";
    static final String DEAD_LETTER_COLUMNS = "dead_letter_id, queue_name, conversation_group_id, conversation_handle,"
            + " conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name,"
            + " message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id";
    final String deadLetters = "SELECT " + DEAD_LETTER_COLUMNS + " FROM ssb.dead_letter WHERE queue_name = ?"
            + " AND dead_letter_id > ? ORDER BY dead_letter_id LIMIT ?";
    final String lockDeadLetter = "SELECT " + DEAD_LETTER_COLUMNS + " FROM ssb.dead_letter"
            + " WHERE queue_name = ? AND dead_letter_id = ? FOR UPDATE";
    final String deleteDeadLetter = "DELETE FROM ssb.dead_letter WHERE dead_letter_id = ?";
    final String purgeDeadLetters = "DELETE FROM ssb.dead_letter WHERE queue_name = ?";
    final String deadLetterCount = "SELECT COUNT(*) FROM ssb.dead_letter WHERE queue_name = ?";
    final String purgeDeadLettersBefore = "DELETE FROM ssb.dead_letter WHERE queue_name = ? AND dead_lettered_at < ?";
    /**
     * {@link org.ssbjca.backend.DeliveryLedger#findDeadLetters}, by {@link #findDeadLetters(boolean, boolean)}.
     * Parameters: queue, after id, then with a text {@link #containing} three times and the text's UTF-8 bytes, then
     * the limit. POSITION over binary strings is the same on H2 and PostgreSQL.
     */
    private static final String[] FIND_DEAD_LETTERS = new String[4];

    static {
        for (boolean text : new boolean[] {false, true}) {
            for (boolean bodies : new boolean[] {false, true}) {
                FIND_DEAD_LETTERS[(text ? 2 : 0) + (bodies ? 1 : 0)] = "SELECT " + (bodies ? DEAD_LETTER_COLUMNS
                        : DEAD_LETTER_COLUMNS.replace("message_body", "CAST(NULL AS BYTEA) AS message_body"))
                        + " FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id > ?"
                        + (text ? " AND (LOWER(last_error) LIKE ? ESCAPE '!' OR LOWER(service_name) LIKE ? ESCAPE '!'"
                                + " OR LOWER(message_type_name) LIKE ? ESCAPE '!' OR POSITION(? IN message_body) > 0)"
                                : "")
                        + " ORDER BY dead_letter_id LIMIT ?";
            }
        }
    }

    /**
     * Returns the statement that lists dead letters, with or without a text to look for and the bodies.
     *
     * @param text whether the statement looks for a text
     * @param bodies whether it reads the bodies (else a NULL message_body)
     */
    static String findDeadLetters(boolean text, boolean bodies) {
        return FIND_DEAD_LETTERS[(text ? 2 : 0) + (bodies ? 1 : 0)];
    }

    /**
     * Returns the LIKE pattern (escape character {@code !}) that matches a lower-cased value containing a text.
     *
     * @param text a text to look for
     */
    static String containing(String text) {
        return "%" + text.toLowerCase(java.util.Locale.ROOT).replace("!", "!!").replace("%", "!%").replace("_", "!_")
                + "%";
    }
    final String priorityRequests = "SELECT conversation_group_id, message_body FROM ssb.message"
            + " WHERE queue_name = ? AND message_type_name = ? ORDER BY queuing_order";
    /** Whether a conversation has a message of a type in its queue: a probe of {@code message_handle}. */
    final String hasMessageOfType = "SELECT 1 FROM ssb.message WHERE conversation_handle = ?"
            + " AND message_type_name = ? FETCH FIRST 1 ROWS ONLY";
    final String priorities = "SELECT conversation_group_id, priority FROM ssb.conversation_priority"
            + " WHERE queue_name = ?";
    /** Whether a queue has a prioritised group (with messages or not). */
    final String anyPriority = "SELECT 1 FROM ssb.conversation_priority WHERE queue_name = ? FETCH FIRST 1 ROWS ONLY";
    final String clearPriorityIfDrained = "DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?"
            + " AND NOT EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = ?)";
    /** The groups with messages in the order the readers take them: prioritised ones, then round-robin turn. */
    final String pendingGroups = "SELECT m.conversation_group_id, COUNT(*) AS messages,"
            + " MIN(m.enqueued_at) AS oldest, MIN(m.queuing_order) AS first_order, MAX(p.priority) AS priority"
            + " FROM ssb.message m LEFT JOIN ssb.conversation_priority p"
            + " ON p.conversation_group_id = m.conversation_group_id"
            + " LEFT JOIN ssb.conversation_group g ON g.conversation_group_id = m.conversation_group_id"
            + " WHERE m.queue_name = ? GROUP BY m.conversation_group_id"
            + " ORDER BY MAX(p.priority) DESC NULLS LAST, MIN(p.request_order), MIN(g.turn), first_order LIMIT ?";

    /**
     * No redelivery delay holds the group ({@code {group}}) at the time given as a parameter: a scalar subquery, one
     * primary-key probe per group whatever the statistics (docs/design/postgresql-receive.md).
     */
    static final String NOT_HELD = "NOT COALESCE((SELECT h.held_until > ? FROM ssb.conversation_hold h"
            + " WHERE h.conversation_group_id = {group}), FALSE)";

    /** The next-turn expression of this database: a sequence's next value. */
    final String nextTurnValue;

    /** The database these statements are written for. */
    final Dialect dialect;

    protected PortableSql(Dialect dialect) {
        this.dialect = dialect;
        nextTurnValue = dialect.nextTurn;
        String messages = "SELECT " + messageColumns(dialect)
                + " FROM ssb.message m LEFT JOIN ssb.conversation_endpoint e"
                + " ON e.conversation_handle = m.conversation_handle";
        messagesOfGroup = messages + " WHERE m.conversation_group_id = ? ORDER BY m.queuing_order LIMIT ?";
        messagesOfConversation = messages + " WHERE m.conversation_handle = ? ORDER BY m.queuing_order LIMIT ?";
        nextTurn = "UPDATE ssb.conversation_group SET turn = " + nextTurnValue + " WHERE conversation_group_id = ?";
        unparkHeld = "UPDATE ssb.conversation_group g SET turn = " + nextTurnValue
                + " WHERE g.conversation_group_id = ? AND g.turn >= " + PARKED + " AND " + HAS_ANY_MESSAGE;
        insertPriority = "INSERT INTO ssb.conversation_priority (conversation_group_id, queue_name, priority,"
                + " request_order, requested_at) VALUES (?, ?, ?, " + dialect.nextPriorityRequest + ", ?)";
    }

    /** Whether group {@code g} has a message. */
    static final String HAS_ANY_MESSAGE =
            "EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id)";

    /** The first part of every INSERT of a message; {@link #insertMessage} is it, or starts with it. */
    static final String INSERT_MESSAGE = "INSERT INTO ssb.message (queue_name, conversation_group_id,"
            + " conversation_handle, message_sequence_number, message_type_name, message_body, enqueued_at,"
            + " trace_context) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    /** Returns this database's statements. */
    static PortableSql of(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? new PostgresSql() : new H2Sql();
    }

    // ---- capabilities: where the two databases work differently

    /**
     * Returns whether a RECEIVE from a whole queue is one statement ({@link #receiveNext}), which also checks that the
     * queue is enabled.
     */
    abstract boolean receivesInOneStatement();

    /**
     * Returns whether a group a RECEIVE drained is parked ({@link #PARKED}) until a SEND gives it a turn, rather than
     * given its next turn; then groups are checked after commits and repaired periodically.
     */
    abstract boolean parksDrainedGroups();

    /**
     * Returns whether BEGIN DIALOG, SEND and their checks can each be written as one statement ({@link #beginDialog},
     * {@link #sendChecked}, ...), and the declared objects carry a version ({@link #catalogVersion}).
     */
    abstract boolean writesInOneStatement();

    /** Returns whether a group's priority is set in one statement ({@link #upsertPriority}). */
    abstract boolean upsertsPriority();

    // ---- statements whose text differs

    /** A new conversation group. Parameters: the group, its queue. */
    abstract String insertGroup();

    /**
     * Puts a message on its queue; where groups are parked, also gives its group a turn again if it was parked (the
     * update count then says whether it was). Parameters: queue, group, handle, sequence, type, body, time.
     */
    abstract String insertMessage();

    /**
     * The failed deliveries recorded for a batch of messages, in one statement. Parameters: the messages'
     * conversation handles (UUID[]) and sequence numbers (BIGINT[]), in the same order. Columns:
     * conversation_handle, message_sequence_number, attempts; one row per message that has a count (on H2 the
     * rows whose handle and number are both among the batch's, which the caller matches to its messages).
     */
    abstract String attemptsOfMessages();

    /**
     * Bounds every lock wait of a connection: for the rest of its transaction (PostgreSQL, which must be in one) or
     * of its session (H2). The ledger's {@code boundLockWaits}, for the reader's bookkeeping.
     *
     * @param millis the longest wait for a lock, a number the adapter chose
     * @return the statement
     */
    abstract String lockWait(int millis);

    // ---- statements only PostgreSQL has ({@link PostgresSql} says what each does): run only where the capability
    // named at each is true; elsewhere they fail at once

    // receivesInOneStatement
    String receiveNext(int top, boolean prioritised, boolean holds) {
        throw missing("a RECEIVE in one statement");
    }

    // parksDrainedGroups
    String turnOrPark() {
        throw missing("parked groups");
    }

    String unparkQueue() {
        throw missing("parked groups");
    }

    String parkQueue() {
        throw missing("parked groups");
    }

    // receivesInOneStatement, writesInOneStatement: run before and after a statement kept prepared (receiveNext,
    // BEGIN DIALOG and SEND in one statement, and there lockConversation), in its round trip
    String keptPlanning() {
        throw missing("statements kept prepared");
    }

    String keptPlanningEnded() {
        throw missing("statements kept prepared");
    }

    // writesInOneStatement
    String beginDialog() {
        throw missing("BEGIN DIALOG in one statement");
    }

    String beginDialogKnown() {
        throw missing("BEGIN DIALOG in one statement");
    }

    String beginDialogAndSend() {
        throw missing("BEGIN DIALOG and SEND in one statement");
    }

    String beginDialogAndSendKnown() {
        throw missing("BEGIN DIALOG and SEND in one statement");
    }

    String sendFirstChecked() {
        throw missing("SEND in one statement");
    }

    String sendFirstKnown() {
        throw missing("SEND in one statement");
    }

    String sendChecked() {
        throw missing("SEND in one statement");
    }

    String sendKnown() {
        throw missing("SEND in one statement");
    }

    String insertGroupAndEndpoint() {
        throw missing("a group and its endpoint in one statement");
    }

    String catalogVersion() {
        throw missing("a version of the declared objects");
    }

    String catalogTriggers() {
        throw missing("a version of the declared objects");
    }

    // upsertsPriority
    String upsertPriority() {
        throw missing("an upsert of a priority");
    }

    private UnsupportedOperationException missing(String what) {
        return new UnsupportedOperationException(getClass().getSimpleName() + " has no " + what);
    }
}
