package org.ssbjca.backend.portable;

/**
 * Every statement the adapter runs on the portable broker schema, for one dialect (the tests' administration, which
 * declares objects as rows, is in the test kit's {@code PortableKitSql}). Names of queues, services, contracts and
 * message types are always bound as parameters: they are data in this schema, never identifiers.
 */
final class PortableSql {

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
     * @param queue a queue of the portable schema
     * @return the statement that enables it again, for an operator to run: the adapter never runs it (nor disables a
     *         queue); it is named in a {@link org.ssbjca.api.QueueDisabledException}'s message
     */
    static String enableQueue(String queue) {
        return "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
                + queue.replace("'", "''") + "'";
    }

    /** @return the exception for a disabled queue of the portable schema, naming {@link #enableQueue} */
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
     * PostgreSQL only (null on H2): BEGIN DIALOG in a new group in one statement: {@link #dialogChecks}, and only when
     * they pass, the group (parked: no message yet) and the initiator endpoint. Parameters: {@link #dialogChecks}'s,
     * the group, then {@link #insertEndpoint}'s. Columns: {@link #dialogChecks}'s.
     */
    final String beginDialog;
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
    final String insertGroup;
    final String groupQueue = "SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ?";
    final String tryLockGroup = "SELECT conversation_group_id FROM ssb.conversation_group"
            + " WHERE conversation_group_id = ? FOR UPDATE SKIP LOCKED";
    final String lockGroup = "SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ? FOR UPDATE";
    final String nextTurn;
    /**
     * Added to a group's turn when a RECEIVE took its last message (PostgreSQL): such a parked group sorts after
     * every group with a turn, and the round-robin pick, which reads groups in turn order up to the first with
     * messages, stops before the parked ones ({@code turn < PARKED}), so open conversations with nothing queued cost a
     * RECEIVE nothing. A SEND to a parked group gives it a turn again in its transaction ({@link #insertMessage}); the
     * race with the RECEIVE that parks it (each sees the other's change only once committed) is closed after the two
     * commits by {@link #unparkGroups}, run for the groups each touched, and a periodic repair is the backstop.
     */
    static final long PARKED = 1L << 62;
    /**
     * Gives parked groups that have messages a turn again, never waiting for a group another transaction holds.
     * Parameters: the groups (UUID[]). Returns their queues.
     */
    final String unparkGroups;
    /**
     * PostgreSQL: the notifier's session keeps its statements' generic plans. {@link #unparkGroups} runs after every
     * commit that parked a group (once per message at low rates); PostgreSQL estimates its array at ten groups in the
     * generic plan and one in a custom plan, so it judged the generic plan dearer and planned the statement again at
     * every execution (about 0.1 ms each), though both plans are the same index probes. That generic plan is made at
     * the first execution, often while the tables are small, where a sequential scan is the cheapest plan, and kept
     * while they grow: so the session, which runs only this statement and {@code pg_notify} and is never handed to
     * the application, also plans no sequential scan where an index serves ({@code GrowingTablesDialogTest}).
     */
    static final String GENERIC_PLANS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', false),"
            + " set_config('enable_seqscan', 'off', false)";
    /** The same for the parked groups of a queue (the periodic repair). Parameter: queue. Returns the groups. */
    final String unparkQueue;
    /**
     * Parks a queue's groups that have a turn and no message (left so by an adapter before parking existed, or by a
     * MOVE CONVERSATION), never waiting for a group another transaction holds. Parameter: queue. Returns the groups,
     * which are checked after the commit like those a RECEIVE parks.
     */
    final String parkQueue;
    /** After a RECEIVE of one conversation or group: a new turn, or parked when no message is left. Parameter: group. */
    final String turnOrPark;
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
    /**
     * PostgreSQL only (null on H2, which has no data-modifying CTE): a new conversation group and an endpoint in it,
     * in one statement. Parameters: the group and its queue, then {@link #insertEndpoint}'s.
     */
    final String insertGroupAndEndpoint;
    /** Both sides of the conversation a handle belongs to, locked, in one statement (always the same order). */
    final String lockConversation = "SELECT " + ENDPOINT_COLUMNS + " FROM ssb.conversation_endpoint"
            + " WHERE conversation_id = (SELECT conversation_id FROM ssb.conversation_endpoint"
            + " WHERE conversation_handle = ?) FOR UPDATE";
    final String endpointGroup = "SELECT conversation_group_id, state FROM ssb.conversation_endpoint"
            + " WHERE conversation_handle = ?";
    final String updateSendSequence =
            "UPDATE ssb.conversation_endpoint SET send_sequence = ?, state = ? WHERE conversation_handle = ?";
    /**
     * PostgreSQL only (null on H2): a dialog's first SEND with its checks, in one statement: {@link #sendChecks}, and
     * only when they pass (the sender's side may send the type, its body passes the type's validation, the target
     * service accepts the contract, its queue receives) the target's new group (given its turn, the message being in
     * it), the target endpoint, the message and the sender's {@link #updateSendSequence}. Parameters:
     * {@link #sendChecks}'s; the sides that may send and the validations the body passes (VARCHAR[] each, decided by
     * the caller); the group; the target endpoint's handle, conversation, service, far service, contract, lifetime,
     * creation time; the message's group, handle, sequence, type, body, time; the sender's next sequence and handle.
     * Columns: {@link #sendChecks}'s, then whether it sent, and the sender rows it updated.
     */
    final String sendFirstChecked;
    /**
     * PostgreSQL only (null on H2): a SEND on a conversation whose target exists, with its checks, in one statement:
     * {@link #sendChecks}, and only when they pass (the sender's side may send the type, its body passes the type's
     * validation, the target's queue receives) {@link #insertMessage} with the sender's {@link #updateSendSequence}.
     * Parameters: {@link #sendChecks}'s; the sides that may send and the validations the body passes (VARCHAR[]
     * each); the message's group, handle, sequence, type, body, time; the sender's next sequence and handle. Columns:
     * {@link #sendChecks}'s, then whether it sent, and whether it gave a parked group its turn.
     */
    final String sendChecked;
    /**
     * PostgreSQL only (null on H2): BEGIN DIALOG in a new group and its first SEND, in one statement, only when every
     * check of both passes ({@link #dialogChecks}'s: the initiator service, the contract; {@link #sendChecks}'s: the
     * initiator may send the type, its body passes the type's validation, the target service exists and accepts the
     * contract, its queue receives): the initiator's group (parked) and endpoint (conversing, sequence 1), the
     * target's group (with its turn) and endpoint, the message (sequence 0): the rows BEGIN DIALOG and its first SEND
     * leave. Parameters: the initiator service, the contract; {@link #sendChecks}'s; the sides that may send and the
     * validations the body passes (VARCHAR[] each); the initiator's group, the target's group; the initiator's handle,
     * conversation, group, service, far service, contract, lifetime, creation time; the target's the same; the
     * message's group, handle, sequence (0), type, body, time. Columns: the target's queue, null when it did not send;
     * the initiator's queue; whether the contract exists; {@link #sendChecks}'s.
     */
    final String beginDialogAndSend;
    /**
     * PostgreSQL only (null on H2): {@link #dialogChecks}'s columns from parameters, as they were at a version of the
     * declared objects ({@link CatalogCache}), and only while that is still the version: no row once it moved on.
     * Parameters: the initiator service's queue, whether the target service exists, whether the contract exists, the
     * version.
     */
    final String knownDialogChecks;
    /**
     * PostgreSQL only (null on H2): {@link #sendChecks}'s columns from parameters, as {@link #knownDialogChecks}.
     * Parameters: sent_by, validation, whether the type exists, the target's queue, whether it accepts the contract,
     * whether its queue receives, the version.
     */
    final String knownSendChecks;
    /**
     * PostgreSQL only (null on H2): {@link #beginDialog} with {@link #knownDialogChecks} for its checks (their
     * parameters first), no row once the version moved on. The same for {@link #sendFirstKnown} and
     * {@link #sendKnown}, with {@link #knownSendChecks}.
     */
    final String beginDialogKnown;
    final String sendFirstKnown;
    final String sendKnown;
    /**
     * PostgreSQL only (null on H2): {@link #beginDialogAndSend} with the initiator's queue and whether the contract
     * exists (parameters), then {@link #knownSendChecks}, for its checks: no row once the version moved on.
     */
    final String beginDialogAndSendKnown;
    /**
     * PostgreSQL only (null on H2): the declared objects' version ({@code sql/portable/postgresql-catalog-version.sql}).
     */
    final String catalogVersion;
    /**
     * PostgreSQL only (null on H2): how many of {@link #CATALOG_TABLES} have the enabled trigger that raises
     * {@link #catalogVersion}: all of them, or the adapter does not use {@link CatalogCache}.
     */
    final String catalogTriggers;
    /** The tables of declared objects, each with the trigger of {@code sql/portable/postgresql-catalog-version.sql}. */
    static final java.util.List<String> CATALOG_TABLES = java.util.List.of("message_type", "contract",
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
     * first in the index's order: a probe of the index whatever the statistics say (without the order, statistics
     * that know nothing of the column made a sequential scan of every endpoint the cheaper plan).
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
    private static final String INSERT_MESSAGE = "INSERT INTO ssb.message (queue_name, conversation_group_id,"
            + " conversation_handle, message_sequence_number, message_type_name, message_body, enqueued_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)";
    /**
     * Puts a message on its queue; on PostgreSQL in the same statement gives its group a turn again if it was parked
     * (the update count then says whether it was). Parameters: queue, group, handle, sequence, type, body, time.
     */
    final String insertMessage;
    private static final String MESSAGE_SELECT = "SELECT m.queuing_order, m.conversation_group_id,"
            + " m.conversation_handle, m.message_sequence_number, m.message_type_name, m.message_body, m.enqueued_at,"
            + " e.conversation_id, e.service_name, e.service_contract_name FROM ssb.message m"
            + " LEFT JOIN ssb.conversation_endpoint e ON e.conversation_handle = m.conversation_handle";
    /**
     * PostgreSQL only (null on H2): the whole RECEIVE from a queue in one round trip, with the same choices as the
     * statements H2 runs one by one. Picks the first group with messages that no other transaction holds
     * (prioritised groups first, highest priority then earliest request; then round-robin turn order), locks it
     * (SKIP LOCKED), deletes its first TOP messages returning them with their endpoint's columns, and gives the
     * group a new turn if it took any. Takes nothing from a disabled queue, nor from a held group (redelivery delay).
     * Parameters: queue, now, queue, now, queue, queue (its variants, {@link #receiveVariants}: fewer); TOP is
     * written into the text ({@link #receiveNext(int, boolean, boolean)}): with a parameter there, PostgreSQL plans the statement
     * again at every execution (its generic plan looks too costly), which costs more than running it.
     * The whole statement sees one snapshot, taken before it locks the group: the messages it picks may have been
     * deleted meanwhile by a transaction that committed (the RECEIVE that held the group, or an END CONVERSATION,
     * which holds the conversation, not its group). The DELETE skips those rows and takes the others it picked, so a
     * RECEIVE may return fewer than TOP messages; when it takes none of the messages it picked, the statement returns
     * one row of NULLs instead (a queuing order of NULL), and the caller runs it again, with a new snapshot.
     * The messages are not locked before the DELETE ({@code ReceiveRowLocksTest}): replayed by pgbench with 4 clients,
     * the statement that locked them cost 380 to 424 µs of PostgreSQL CPU per message taken, this one 316 to 352
     * (its runs again included); with one client both cost about 330, so what the locks cost is contention between
     * readers, not the writes themselves. A group that a RECEIVE released after this one's snapshot is passed over as a
     * held one ({@link #HAS_MESSAGES_AS_SEEN}); before, about one RECEIVE in six ran again for it with several readers.
     * The DELETE also checks the group, so a message another transaction moved to another group meanwhile (MOVE
     * CONVERSATION) is not taken.
     * <p>
     * The messages to take are chosen once, in a {@code MATERIALIZED} CTE ({@code picked}), and the DELETE takes
     * that result. Written as {@code DELETE ... WHERE queuing_order IN (SELECT ... LIMIT n FOR UPDATE)}, the
     * selection's meaning depended on the plan: once the tables had statistics PostgreSQL could plan it as a nested
     * loop that ran the {@code LIMIT ... FOR UPDATE} again for each message row, and each run skipped the rows the
     * DELETE had already removed, so one RECEIVE took the whole group whatever TOP said. A materialized CTE is
     * evaluated once per execution whatever the plan (PostgreSQL 12 or later).
     * <p>
     * Its cost must not depend on the statistics either: a queue table swings between empty and full, and an
     * {@code ANALYZE} (or autovacuum) of a drained table tells the planner it holds no rows whatever arrives next.
     * With {@code EXISTS} and {@code DELETE ... USING}, PostgreSQL then planned a join that read every message of the
     * queue on every RECEIVE (82,000 buffers per RECEIVE of 20,000 queued messages, instead of a few dozen). So the
     * test for messages is a scalar subquery, one index probe per candidate group in turn order, and the DELETE
     * takes the picked rows by their physical address ({@code ctid}, rows this statement has locked, so they cannot
     * move), a TID scan. (Keyed on {@code queuing_order}, the DELETE still read a whole index of the table.) Each
     * message's endpoint is a {@code LATERAL} subquery with a {@code LIMIT}, which PostgreSQL cannot flatten into a
     * join, so it is one probe of the endpoint's primary key per message (a plain join read the whole index once
     * {@code conversation_endpoint} too was analysed empty). These plans stay cheap whatever the planner believes
     * about the sizes. What remains proportional is one probe for each idle group (no messages, conversation not
     * ended) whose turn comes before the chosen group's.
     * <p>
     * Column {@code took_last} says whether the statement took the last messages that were waiting for a reader
     * when it ran: its group was left with none (parked) and no other group of the queue had its turn (turn below
     * {@link #PARKED}: messages, or an unparked group whose messages have just gone). Then a reader that took a full
     * batch wakes no other reader once it committed ({@code BrokerSession.mayHaveLeftMore}). The probe runs only when
     * the group was parked. Measured on one connection (200 groups of 20 messages, 7,000 executions interleaved with
     * the statement without the column, each rolled back): 3 µs more per execution of about 300 when the probe does
     * not run; written as a plain {@code EXISTS} that always runs, 9 to 12 µs more.
     * <p>
     * Column {@code recorded_attempts} is the failed deliveries {@code ssb.delivery_attempt} holds for each message
     * taken (NULL for none), so that a reader sorts its batch by the counts every node recorded, in the RECEIVE's
     * transaction and without another statement ({@code BrokerSession.recordedAttempts}). It is a {@code LATERAL}
     * subquery with a {@code LIMIT}, as the endpoint's is: one probe of the ledger's primary key per message taken,
     * whatever the statistics. It reads the ledger with the statement's snapshot, taken when the statement starts. A
     * node records a failure in a transaction of its own and commits it before its delivery rolls back, and the
     * delivery's transaction holds the group until then: so a failure committed before this statement starts is
     * seen, and one whose rollback has not released the group when this statement reaches it leaves the group to
     * another RECEIVE (SKIP LOCKED). Not seen is a failure committed while this statement runs whose rollback also
     * comes before the statement reaches the group: that message is delivered once more than
     * {@code maxDeliveryAttempts} allows. The statements H2 runs one by one read the ledger after the group is locked
     * ({@link #attemptsOfMessages}), each with a snapshot of its own, and see every such failure (at READ COMMITTED).
     */
    private final String receiveNext;
    /**
     * {@link #receiveNext} and its smaller variants, by {@link #variant}: without the prioritised groups' part (the
     * groups in turn order only, for a queue known to have no prioritised group, {@link
     * org.ssbjca.backend.GroupPresence}, or a reader told to ignore priorities), and without the holds' check (for
     * a RECEIVE that does not skip held groups: no group counts as held). PostgreSQL sets up every part of a plan at
     * each execution, run or not: replayed by pgbench (one client, an empty queue, ten RECEIVEs per transaction) the
     * statement with the prioritised part cost 111 to 124 µs of PostgreSQL CPU per execution, without it 96 to 100.
     * Without the holds' check there is no time to bind either (pgjdbc formats a timestamp parameter as text).
     * Parameters: queue, [now,] queue, [now,] queue, queue (prioritised), or queue, [now,] queue, queue; the times
     * only with the holds' check.
     */
    private final String[] receiveVariants = new String[4];
    /** The texts by TOP and variant (key: TOP * 4 + variant). */
    private final java.util.concurrent.ConcurrentMap<Long, String> receiveNextByTop =
            new java.util.concurrent.ConcurrentHashMap<>();
    final String messagesOfGroup = MESSAGE_SELECT + " WHERE m.conversation_group_id = ? ORDER BY m.queuing_order LIMIT ?";
    final String messagesOfConversation =
            MESSAGE_SELECT + " WHERE m.conversation_handle = ? ORDER BY m.queuing_order LIMIT ?";
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
    /** Whether a lock wait is bounded in the transaction (PostgreSQL), not in the connection's session (H2). */
    private final boolean lockWaitInTransaction;

    /**
     * Bounds the lock waits of a move of transmissions, in its transaction (PostgreSQL) or its own connection's
     * session (H2): a reader's or the repair pass's page ({@code Transmissions.LOCK_WAIT_MILLIS}) fails at once on a
     * row an uncommitted END CONVERSATION deletes, the calling RECEIVE's own transaction's among them, instead of
     * holding the RECEIVE; a background move's page ({@code Transmissions.BACKGROUND_LOCK_WAIT_MILLIS}) waits longer.
     *
     * @param millis the longest wait for a lock, a number the adapter chose
     * @return the statement
     */
    String moveLockWait(int millis) {
        return lockWait(millis);
    }

    /**
     * Bounds every lock wait of a connection: for the rest of its transaction (PostgreSQL, which must be in one) or
     * of its session (H2). The ledger's {@code boundLockWaits}, for the reader's bookkeeping.
     *
     * @param millis the longest wait for a lock, a number the adapter chose
     * @return the statement
     */
    String lockWait(int millis) {
        return lockWaitInTransaction ? "SET LOCAL lock_timeout = '" + millis + "ms'" : "SET LOCK_TIMEOUT " + millis;
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

    // ---- priorities
    final String deletePriority = "DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?";
    final String insertPriority;
    /**
     * PostgreSQL (null on H2): a group's priority set in one statement, replacing the one it had. Two transactions
     * setting one group's priority at once (two nodes' scans of one request) then wait for each other and the later
     * wins; a DELETE then INSERT failed the second on the primary key ({@code ConcurrentSetPriorityTest}).
     */
    final String upsertPriority;

    // ---- delivery ledger
    /**
     * The failed deliveries recorded for a batch of messages, in one statement: run by a RECEIVE that the one statement
     * ({@link #receiveNext}) did not take, after its take, in its transaction; and by the ledger's
     * {@code attempts}. Parameters: the messages' conversation handles (UUID[]) and sequence numbers (BIGINT[]), in
     * the same order. Columns: conversation_handle, message_sequence_number, attempts, one row per message that has a
     * count. On PostgreSQL one probe of the ledger's primary key per message (a {@code LATERAL} subquery with a
     * {@code LIMIT}, see {@link #receiveNext}); on H2, which has no {@code LATERAL}, the rows whose handle and number
     * are both among the batch's, which the caller matches to its messages.
     */
    final String attemptsOfMessages;
    final String attemptsOf = "SELECT conversation_handle, message_sequence_number, attempts FROM ssb.delivery_attempt"
            + " WHERE conversation_handle = ? AND message_sequence_number = ?";
    final String incrementAttempts = "UPDATE ssb.delivery_attempt SET attempts = attempts + 1, last_error = ?,"
            + " last_attempt_at = ? WHERE conversation_handle = ? AND message_sequence_number = ?";
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
            + " service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT a.last_error FROM ssb.delivery_attempt a"
            + " WHERE a.conversation_handle = ? AND a.message_sequence_number = ?)), ?)";
    static final String DEAD_LETTER_COLUMNS = "dead_letter_id, queue_name, conversation_group_id, conversation_handle,"
            + " conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name,"
            + " message_body, enqueued_at, attempts, last_error, dead_lettered_at";
    final String deadLetters = "SELECT " + DEAD_LETTER_COLUMNS + " FROM ssb.dead_letter WHERE queue_name = ?"
            + " AND dead_letter_id > ? ORDER BY dead_letter_id LIMIT ?";
    final String lockDeadLetter = "SELECT " + DEAD_LETTER_COLUMNS + " FROM ssb.dead_letter"
            + " WHERE queue_name = ? AND dead_letter_id = ? FOR UPDATE";
    final String deleteDeadLetter = "DELETE FROM ssb.dead_letter WHERE dead_letter_id = ?";
    final String purgeDeadLetters = "DELETE FROM ssb.dead_letter WHERE queue_name = ?";
    final String deadLetterCount = "SELECT COUNT(*) FROM ssb.dead_letter WHERE queue_name = ?";
    final String purgeDeadLettersBefore = "DELETE FROM ssb.dead_letter WHERE queue_name = ? AND dead_lettered_at < ?";
    final String priorityRequests = "SELECT conversation_group_id, message_body FROM ssb.message"
            + " WHERE queue_name = ? AND message_type_name = ? ORDER BY queuing_order";
    /** Whether a conversation has a message of a type in its queue: a probe of {@code message_handle}. */
    final String hasMessageOfType = "SELECT 1 FROM ssb.message WHERE conversation_handle = ?"
            + " AND message_type_name = ? FETCH FIRST 1 ROWS ONLY";
    final String priorities = "SELECT conversation_group_id, priority FROM ssb.conversation_priority"
            + " WHERE queue_name = ?";
    /** Whether a queue has a prioritised group (with messages or not): the probe behind {@link #receiveVariants}. */
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

    private static final String TOP = "{top}";
    /**
     * TOP + 1: the messages picked are one more than those taken, so that the statement knows, without another
     * probe, whether the group keeps messages (a new turn) or is emptied (parked).
     */
    private static final String TOP_PLUS_ONE = "{top+1}";
    /**
     * No redelivery delay holds the group ({@code {group}}) at the time given as a parameter. A scalar subquery, one
     * primary-key probe per candidate group, for the reason {@link #HAS_MESSAGES} is one: written as NOT EXISTS,
     * PostgreSQL turned it into an anti-join and the first RECEIVE after an ANALYZE of the empty tables touched
     * 10,785 buffers instead of a few dozen ({@code StaleStatisticsReceiveTest}).
     */
    private static final String NOT_HELD = "NOT COALESCE((SELECT h.held_until > ? FROM ssb.conversation_hold h"
            + " WHERE h.conversation_group_id = {group}), FALSE)";
    /**
     * Whether a group has messages, written so that PostgreSQL runs it as a probe of {@code message_group} for each
     * candidate group (a scalar subquery is never turned into a join), never as a join that reads every message of
     * the queue. See {@link #receiveNext}.
     */
    private static final String HAS_MESSAGES = "(SELECT TRUE FROM ssb.message m WHERE m.conversation_group_id = {group}"
            + " LIMIT 1)";

    /**
     * {@link #HAS_MESSAGES} for a candidate group {@code g} whose row is the version the statement's snapshot sees:
     * the row at {@code g}'s address read by the snapshot (a TID scan of the page the scan has just read), then the
     * probe of its messages. In the scan the first part always finds {@code g} itself. It is there for the row
     * PostgreSQL locks: when a transaction that committed after the snapshot updated the group (a RECEIVE that took
     * its first messages and gave it a new turn), {@code FOR UPDATE} locks the newest version and tests the
     * conditions again on it, this subquery still by the snapshot, which does not see that version: the group is
     * passed over, as one that RECEIVE still held would have been. Without it the statement took such a group, found
     * the messages its snapshot picked gone, and ran again (its marker row): 4 and 8 readers ran it 1.14 to 1.19
     * times per message (the benchmark's scaling rows, every consumer alike), and with it once ({@code
     * ReceiveRowLocksTest.severalReadersRunTheStatementOncePerMessage}: 1,070 executions for 1,000 messages and 4
     * empty looks before). Replayed by pgbench (4 and 8 clients, each transaction one RECEIVE and its commit, fsync
     * on, 200 groups of 100 messages; two runs each), PostgreSQL's CPU per message taken was 2% to 8% lower. Written
     * inside one subquery with {@link #HAS_MESSAGES}, not as a condition beside it (the planner judged such a
     * condition to pass few groups and read and sorted every candidate group instead of taking the first in turn
     * order: 187 buffers per RECEIVE in {@code IdleGroupsReceiveTest} instead of about 65), and by address, not by
     * primary key and turn (with the statistics of an empty table the planner probed the turn index for it instead,
     * 39 buffers a time in {@code StaleStatisticsReceiveTest}).
     */
    private static final String HAS_MESSAGES_AS_SEEN = "(SELECT TRUE FROM ssb.conversation_group s"
            + " WHERE s.ctid = g.ctid"
            + " AND " + HAS_MESSAGES.replace("{group}", "g.conversation_group_id") + ")";

    /** @return whether a RECEIVE from a whole queue is one statement, {@link #receiveNext(int, boolean, boolean)} (not on H2) */
    boolean receivesInOneStatement() {
        return receiveNext != null;
    }

    private static int variant(boolean prioritised, boolean holds) {
        return (prioritised ? 2 : 0) + (holds ? 1 : 0);
    }

    /**
     * @param top messages to take at most, 1 or more
     * @param prioritised whether prioritised groups are tried first, or the groups are taken in turn order only
     * @param holds whether groups held by a redelivery delay are left out (then the statement takes the time)
     * @return the statement for that TOP ({@link #receiveVariants}), or null on H2
     */
    String receiveNext(int top, boolean prioritised, boolean holds) {
        if (receiveNext == null) {
            return null;
        }
        if (top < 1) {
            throw new IllegalArgumentException("TOP must be 1 or more: " + top);
        }
        long key = top * 4L + variant(prioritised, holds);
        String cached = receiveNextByTop.get(key);
        if (cached != null) {
            return cached;
        }
        String text = receiveVariants[variant(prioritised, holds)].replace(TOP_PLUS_ONE, Long.toString(top + 1L))
                .replace(TOP, Integer.toString(top));
        if (receiveNextByTop.size() < 64) {
            receiveNextByTop.putIfAbsent(key, text);
        }
        return text;
    }

    PortableSql(Dialect dialect) {
        // a new group has no message yet: parked on PostgreSQL (the SEND that puts one there gives it its turn)
        insertGroup = "INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn) VALUES (?, ?, "
                + dialect.nextTurn + (dialect.receivesInOneStatement ? " + " + PARKED : "") + ")";
        insertGroupAndEndpoint = dialect.receivesInOneStatement ? "WITH g AS (" + insertGroup + ") " + insertEndpoint
                : null;
        nextTurn = "UPDATE ssb.conversation_group SET turn = " + dialect.nextTurn + " WHERE conversation_group_id = ?";
        lockWaitInTransaction = dialect.receivesInOneStatement;
        attemptsOfMessages = dialect.receivesInOneStatement
                ? "SELECT k.conversation_handle, k.message_sequence_number, a.attempts"
                        + " FROM unnest(CAST(? AS UUID[]), CAST(? AS BIGINT[])) AS k(conversation_handle,"
                        + " message_sequence_number) CROSS JOIN LATERAL " + attemptsProbe("k")
                : "SELECT conversation_handle, message_sequence_number, attempts FROM ssb.delivery_attempt"
                        + " WHERE conversation_handle = ANY (?) AND message_sequence_number = ANY (?)";
        String hasMessages = "EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id)";
        // One primary-key probe per group (a LATERAL subquery with a LIMIT is never flattened into a join), and the
        // UPDATE takes the rows it locked by their address: whatever the statistics say about the table's size
        // (analysed empty, PostgreSQL scanned the whole table for "= ANY (?)" at every commit).
        unparkGroups = "UPDATE ssb.conversation_group u SET turn = " + dialect.nextTurn
                + " WHERE u.ctid = ANY (ARRAY(SELECT l.ctid FROM unnest(CAST(? AS UUID[])) AS k(id)"
                + " CROSS JOIN LATERAL (SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.conversation_group_id = k.id AND g.turn >= " + PARKED + " AND " + hasMessages
                + " LIMIT 1 FOR UPDATE SKIP LOCKED) l)) RETURNING u.queue_name";
        unparkQueue = "UPDATE ssb.conversation_group u SET turn = " + dialect.nextTurn
                + " WHERE u.ctid = ANY (ARRAY(SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.queue_name = ? AND g.turn >= " + PARKED + " AND " + hasMessages
                + " FOR UPDATE SKIP LOCKED)) RETURNING u.conversation_group_id";
        parkQueue = "UPDATE ssb.conversation_group u SET turn = u.turn + " + PARKED
                + " WHERE u.ctid = ANY (ARRAY(SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.queue_name = ? AND g.turn < " + PARKED + " AND NOT " + hasMessages
                + " FOR UPDATE SKIP LOCKED)) RETURNING u.conversation_group_id";
        turnOrPark = "UPDATE ssb.conversation_group g SET turn = " + dialect.nextTurn + " + CASE WHEN " + hasMessages
                + " THEN 0 ELSE " + PARKED + " END WHERE g.conversation_group_id = ? RETURNING g.turn >= " + PARKED
                + " AS parked";
        unparkHeld = "UPDATE ssb.conversation_group g SET turn = " + dialect.nextTurn
                + " WHERE g.conversation_group_id = ? AND g.turn >= " + PARKED + " AND " + hasMessages;
        // SKIP LOCKED: a SEND never waits, also not for a transaction that holds the group in a RECEIVE of one
        // conversation (a client awaiting its reply); that holder's check after its commit gives the turn.
        String unparkInserted = " UPDATE ssb.conversation_group u SET turn = " + dialect.nextTurn
                + " WHERE u.ctid = (SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.conversation_group_id = (SELECT conversation_group_id FROM m) AND g.turn >= " + PARKED
                + " FOR UPDATE SKIP LOCKED)";
        insertMessage = dialect.receivesInOneStatement
                ? "WITH m AS (" + INSERT_MESSAGE + " RETURNING conversation_group_id)" + unparkInserted
                : INSERT_MESSAGE;
        String checked = " FROM k WHERE k.from_queue IS NOT NULL AND k.target_exists AND k.contract_exists";
        beginDialog = dialect.receivesInOneStatement ? "WITH k AS (" + dialogChecks + "),"
                + " g AS (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), k.from_queue, " + dialect.nextTurn + " + " + PARKED + checked + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at)"
                + " SELECT CAST(? AS UUID), CAST(? AS UUID), CAST(? AS BOOLEAN), CAST(? AS UUID),"
                + " CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS CHAR(2)), 0,"
                + " CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE)" + checked + ")"
                + " SELECT k.from_queue, k.target_exists, k.contract_exists FROM k" : null;
        String passed = " FROM k WHERE k.sent_by = ANY (CAST(? AS VARCHAR[]))"
                + " AND k.validation = ANY (CAST(? AS VARCHAR[])) AND k.receives";
        String message = "INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle,"
                + " message_sequence_number, message_type_name, message_body, enqueued_at) SELECT ok.queue_name,"
                + " CAST(? AS UUID), CAST(? AS UUID), CAST(? AS BIGINT), CAST(? AS VARCHAR(256)), CAST(? AS BYTEA),"
                + " CAST(? AS TIMESTAMP WITH TIME ZONE) FROM ok";
        String senderUpdate = "UPDATE ssb.conversation_endpoint SET send_sequence = CAST(? AS BIGINT), state = '"
                + Endpoint.CONVERSING + "' WHERE conversation_handle = CAST(? AS UUID) AND EXISTS (SELECT 1 FROM ok)"
                + " RETURNING 1";
        String targetGroup = "INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), ok.queue_name, " + dialect.nextTurn + " FROM ok";
        // an endpoint's values from the checks' row: handle, conversation, (initiator), group, service, far service,
        // contract, (state CONVERSING, sequence), lifetime, creation time
        String endpointFromOk = "SELECT CAST(? AS UUID), CAST(? AS UUID), %s, CAST(? AS UUID),"
                + " CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), '" + Endpoint.CONVERSING
                + "', %d, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE) FROM ok";
        String target = String.format(java.util.Locale.ROOT, endpointFromOk, "FALSE", 0);
        sendFirstChecked = dialect.receivesInOneStatement ? "WITH k AS (" + sendChecks + "),"
                + " ok AS (SELECT k.queue_name" + passed + " AND k.accepts),"
                + " g AS (" + targetGroup + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at) " + target + "),"
                + " m AS (" + message + "), s AS (" + senderUpdate + ")"
                + " SELECT k.*, EXISTS (SELECT 1 FROM ok), (SELECT count(*) FROM s) FROM k" : null;
        // the rows of BEGIN DIALOG and its first SEND, from CTE ok (the target's queue and the initiator's)
        String dialogRows = " ig AS (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), ok.from_queue, " + dialect.nextTurn + " + " + PARKED + " FROM ok),"
                + " tg AS (" + targetGroup + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at) "
                + String.format(java.util.Locale.ROOT, endpointFromOk, "TRUE", 1) + " UNION ALL " + target + "),"
                + " m AS (" + message + ")";
        String dialogAndSendChecks = "SELECT (SELECT queue_name FROM ssb.service WHERE service_name = ?) AS from_queue,"
                + " EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = ?) AS contract_exists, c.*"
                + " FROM (" + sendChecks + ") c";
        beginDialogAndSend = dialect.receivesInOneStatement ? "WITH k AS (" + dialogAndSendChecks + "),"
                + " ok AS (SELECT k.queue_name, k.from_queue" + passed
                + " AND k.accepts AND k.from_queue IS NOT NULL AND k.contract_exists)," + dialogRows
                + " SELECT (SELECT queue_name FROM ok), k.* FROM k" : null;
        catalogVersion = dialect.receivesInOneStatement ? "SELECT version FROM ssb.catalog_version WHERE id = 1" : null;
        catalogTriggers = dialect.receivesInOneStatement ? "SELECT count(*) FROM pg_catalog.pg_trigger t"
                + " JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = 'ssb' AND t.tgname = 'catalog_changed' AND t.tgenabled IN ('O', 'A')"
                + " AND c.relname IN ('" + String.join("', '", CATALOG_TABLES) + "')"
                + " AND to_regclass('ssb.catalog_version') IS NOT NULL" : null;
        sendChecked = dialect.receivesInOneStatement ? "WITH k AS (" + sendChecks + "),"
                + " ok AS (SELECT k.queue_name" + passed + "),"
                + " m AS (" + message + " RETURNING conversation_group_id), s AS (" + senderUpdate + "),"
                + " t AS (" + unparkInserted.trim() + " RETURNING 1)"
                + " SELECT k.*, EXISTS (SELECT 1 FROM ok), EXISTS (SELECT 1 FROM t) FROM k" : null;
        String version = " FROM ssb.catalog_version v WHERE v.id = 1 AND v.version = CAST(? AS BIGINT)";
        knownDialogChecks = dialect.receivesInOneStatement ? "SELECT CAST(? AS VARCHAR(128)) AS from_queue,"
                + " CAST(? AS BOOLEAN) AS target_exists, CAST(? AS BOOLEAN) AS contract_exists" + version : null;
        knownSendChecks = dialect.receivesInOneStatement ? "SELECT CAST(? AS VARCHAR(9)) AS sent_by,"
                + " CAST(? AS VARCHAR(15)) AS validation, CAST(? AS BOOLEAN) AS type_exists,"
                + " CAST(? AS VARCHAR(128)) AS queue_name, CAST(? AS BOOLEAN) AS accepts,"
                + " CAST(? AS BOOLEAN) AS receives" + version : null;
        beginDialogKnown = withChecks(beginDialog, dialogChecks, knownDialogChecks);
        sendFirstKnown = withChecks(sendFirstChecked, sendChecks, knownSendChecks);
        sendKnown = withChecks(sendChecked, sendChecks, knownSendChecks);
        beginDialogAndSendKnown = withChecks(beginDialogAndSend, dialogAndSendChecks, knownSendChecks == null ? null
                : "SELECT CAST(? AS VARCHAR(128)) AS from_queue, CAST(? AS BOOLEAN) AS contract_exists, c.*"
                + " FROM (" + knownSendChecks + ") c");
        insertPriority = "INSERT INTO ssb.conversation_priority (conversation_group_id, queue_name, priority,"
                + " request_order, requested_at) VALUES (?, ?, ?, " + dialect.nextPriorityRequest + ", ?)";
        upsertPriority = dialect.receivesInOneStatement ? insertPriority + " ON CONFLICT (conversation_group_id)"
                + " DO UPDATE SET queue_name = EXCLUDED.queue_name, priority = EXCLUDED.priority,"
                + " request_order = EXCLUDED.request_order, requested_at = EXCLUDED.requested_at" : null;
        if (dialect.receivesInOneStatement) { // PostgreSQL; H2 runs the statements one by one
            for (boolean holds : new boolean[] {false, true}) {
                String notHeld = holds ? " AND " + NOT_HELD : "";
                String prioritised = "(SELECT p.conversation_group_id FROM ssb.conversation_priority p"
                        + " JOIN ssb.conversation_group g ON g.conversation_group_id = p.conversation_group_id"
                        + " WHERE p.queue_name = ?"
                        + " AND " + HAS_MESSAGES_AS_SEEN + notHeld.replace("{group}", "p.conversation_group_id")
                        + " ORDER BY p.priority DESC, p.request_order LIMIT 1 FOR UPDATE OF g SKIP LOCKED)";
                String roundRobin = "(SELECT g.conversation_group_id FROM ssb.conversation_group g"
                        + " WHERE g.queue_name = ? AND g.turn < " + PARKED
                        + " AND " + HAS_MESSAGES_AS_SEEN + notHeld.replace("{group}", "g.conversation_group_id")
                        + " ORDER BY g.turn LIMIT 1 FOR UPDATE SKIP LOCKED)";
                receiveVariants[variant(true, holds)] =
                        receiveFrom("COALESCE(" + prioritised + ", " + roundRobin + ")", dialect);
                receiveVariants[variant(false, holds)] = receiveFrom(roundRobin, dialect);
            }
        }
        receiveNext = receiveVariants[variant(true, true)];
    }

    /**
     * @return {@code statement}, whose first common table expression is {@code k AS (checks)}, with {@code known} for
     *         them; null on H2
     */
    private static String withChecks(String statement, String checks, String known) {
        if (statement == null) {
            return null;
        }
        String k = "WITH k AS (" + checks + "),";
        if (!statement.startsWith(k)) {
            throw new IllegalStateException("not a statement with checks: " + statement);
        }
        return "WITH k AS (" + known + ")," + statement.substring(k.length());
    }

    /**
     * @param message the alias of the rows with a message's {@code conversation_handle} and
     *        {@code message_sequence_number}
     * @return a {@code LATERAL} subquery {@code a} of the failed deliveries recorded for each: one probe of the
     *         ledger's primary key, which PostgreSQL cannot flatten into a join whatever the statistics (see
     *         {@link #receiveNext})
     */
    private static String attemptsProbe(String message) {
        return "(SELECT a.attempts FROM ssb.delivery_attempt a WHERE a.conversation_handle = " + message
                + ".conversation_handle AND a.message_sequence_number = " + message
                + ".message_sequence_number LIMIT 1) a";
    }

    /** {@link #receiveNext}'s text, the group chosen by {@code pick}. */
    private static String receiveFrom(String pick, Dialect dialect) {
        return "WITH grp AS MATERIALIZED (SELECT " + pick + " AS conversation_group_id"
                + " WHERE EXISTS (SELECT 1 FROM ssb.service_queue q WHERE q.queue_name = ? AND q.is_receive_enabled)),"
                + " picked AS MATERIALIZED (SELECT m.ctid, m.queuing_order FROM ssb.message m"
                + " WHERE m.conversation_group_id = (SELECT conversation_group_id FROM grp)"
                + " ORDER BY m.queuing_order LIMIT " + TOP_PLUS_ONE + "),"
                + " taken AS (DELETE FROM ssb.message d WHERE d.ctid = ANY (ARRAY(SELECT p.ctid FROM picked p"
                + " ORDER BY p.queuing_order LIMIT " + TOP + "))"
                + " AND d.conversation_group_id = (SELECT conversation_group_id FROM grp) RETURNING d.*),"
                + " turn AS (UPDATE ssb.conversation_group SET turn = " + dialect.nextTurn
                + " + CASE WHEN (SELECT count(*) FROM picked) > " + TOP + " THEN 0 ELSE " + PARKED + " END"
                + " WHERE conversation_group_id = (SELECT conversation_group_id FROM grp)"
                + " AND EXISTS (SELECT 1 FROM taken) RETURNING turn >= " + PARKED + " AS parked)"
                + " SELECT m.queuing_order, m.conversation_group_id, m.conversation_handle, m.message_sequence_number,"
                + " m.message_type_name, m.message_body, m.enqueued_at, e.conversation_id, e.service_name,"
                + " e.service_contract_name, (SELECT t.parked FROM turn t) AS parked,"
                + " CASE WHEN (SELECT t.parked FROM turn t) THEN NOT EXISTS (SELECT 1 FROM ssb.conversation_group o"
                + " WHERE o.queue_name = ? AND o.turn < " + PARKED
                + " AND o.conversation_group_id <> (SELECT conversation_group_id FROM grp)) ELSE FALSE END"
                + " AS took_last, a.attempts AS recorded_attempts"
                + " FROM taken m"
                + " LEFT JOIN LATERAL (SELECT x.conversation_id, x.service_name, x.service_contract_name"
                + " FROM ssb.conversation_endpoint x WHERE x.conversation_handle = m.conversation_handle LIMIT 1) e"
                + " ON TRUE"
                + " LEFT JOIN LATERAL " + attemptsProbe("m") + " ON TRUE"
                // the marker: picked messages, none of them left to take (see the javadoc)
                + " UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
                + " WHERE EXISTS (SELECT 1 FROM picked) AND NOT EXISTS (SELECT 1 FROM taken)"
                + " ORDER BY queuing_order";
    }
}
