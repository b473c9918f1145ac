package org.ssbjca.backend.portable;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The portable schema's statements on PostgreSQL: a RECEIVE from a whole queue in one statement
 * ({@link #receiveNext}), drained groups parked ({@link #PARKED}), BEGIN DIALOG and SEND with their checks in one
 * statement each (data-modifying {@code WITH}), a version of the declared objects ({@link CatalogCache}), and lock
 * waits bounded per transaction. Every statement's plan is meant to stay cheap whatever the planner's statistics say
 * about the tables' sizes: docs/design/postgresql-receive.md says how, and what was measured.
 */
final class PostgresSql extends PortableSql {

    /**
     * Settings of the notifier's own session ({@link PgNotifier}): generic plans kept, no sequential scan where an
     * index serves (docs/design/notifier-session.md). That session is never handed to the application.
     */
    static final String GENERIC_PLANS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', false),"
            + " set_config('enable_seqscan', 'off', false)";

    private static final String TOP = "{top}";
    /** TOP + 1: one message more is picked than taken, so the statement knows whether the group keeps messages. */
    private static final String TOP_PLUS_ONE = "{top+1}";
    /** Whether group {@code {group}} has messages: one probe of {@code message_group}, never a join. */
    private static final String HAS_MESSAGES = "(SELECT TRUE FROM ssb.message m WHERE m.conversation_group_id = {group}"
            + " LIMIT 1)";
    /**
     * {@link #HAS_MESSAGES} for candidate group {@code g} as the statement's snapshot sees its row (by address): a
     * group another RECEIVE took and gave a new turn since the snapshot is passed over, as if still held.
     */
    private static final String HAS_MESSAGES_AS_SEEN = "(SELECT TRUE FROM ssb.conversation_group s"
            + " WHERE s.ctid = g.ctid"
            + " AND " + HAS_MESSAGES.replace("{group}", "g.conversation_group_id") + ")";

    private final String insertGroup;
    private final String insertMessage;
    private final String attemptsOfMessages;
    /**
     * Gives parked groups that have messages a turn again, never waiting for a group another transaction holds.
     * Parameters: the groups (UUID[]). Returns their queues.
     */
    final String unparkGroups;
    /** The same for the parked groups of a queue (the periodic repair). Parameter: queue. Returns the groups. */
    /** How many transactions the server may hold prepared: 0 refuses every PREPARE TRANSACTION. */
    static final String PREPARED_TRANSACTIONS_LIMIT =
            "SELECT CAST(current_setting('max_prepared_transactions') AS INTEGER)";

    private final String unparkQueue;
    /**
     * Parks a queue's groups that have a turn and no message, never waiting for a group another transaction holds.
     * Parameter: queue. Returns the groups, which are checked after the commit like those a RECEIVE parks.
     */
    private final String parkQueue;
    /** After a RECEIVE of one conversation or group: a new turn, or parked when no message is left. Param: group. */
    private final String turnOrPark;
    /**
     * A new conversation group and an endpoint in it. Parameters: the group and its queue, then
     * {@link #insertEndpoint}'s.
     */
    private final String insertGroupAndEndpoint;
    /**
     * BEGIN DIALOG in a new group: {@link #dialogChecks}, and only when they pass, the group (parked) and the
     * initiator endpoint. Parameters: {@link #dialogChecks}'s, the group, then {@link #insertEndpoint}'s. Columns:
     * {@link #dialogChecks}'s.
     */
    private final String beginDialog;
    /**
     * A dialog's first SEND: {@link #sendChecks}, and only when they pass, the target's new group, the target
     * endpoint, the message and the sender's {@link #updateSendSequence}. Parameters: {@link #sendChecks}'s; the sides
     * that may send and the validations the body passes (VARCHAR[] each); the group; the target endpoint's handle,
     * conversation, service, far service, contract, lifetime, creation time; the message's group, handle, sequence,
     * type, body, time; the sender's next sequence and handle. Columns: {@link #sendChecks}'s, whether it sent, the
     * sender rows it updated.
     */
    private final String sendFirstChecked;
    /**
     * A SEND on a conversation whose target exists: {@link #sendChecks}, and only when they pass, the message (its
     * group given a turn if parked) and the sender's {@link #updateSendSequence}. Parameters: {@link #sendChecks}'s;
     * the sides and validations (VARCHAR[] each); the message's group, handle, sequence, type, body, time; the
     * sender's next sequence and handle. Columns: {@link #sendChecks}'s, whether it sent, whether it unparked.
     */
    private final String sendChecked;
    /**
     * BEGIN DIALOG in a new group and its first SEND, only when every check of both passes: both groups and
     * endpoints and the message. Parameters: the initiator service, the contract; {@link #sendChecks}'s; the sides and
     * validations (VARCHAR[] each); the initiator's group, the target's group; the initiator's handle, conversation,
     * group, service, far service, contract, lifetime, creation time; the target's the same; the message's group,
     * handle, sequence (0), type, body, time. Columns: the target's queue (null when it did not send), the
     * initiator's queue, whether the contract exists, {@link #sendChecks}'s.
     */
    private final String beginDialogAndSend;
    /**
     * The statements above with their checks' columns given as parameters (first), as read at a version of the
     * declared objects ({@link CatalogCache}), plus that version: no row once the version moved on.
     */
    private final String beginDialogKnown;
    private final String sendFirstKnown;
    private final String sendKnown;
    private final String beginDialogAndSendKnown;
    /** The declared objects' version ({@code sql/portable/postgresql-catalog-version.sql}). */
    private final String catalogVersion = "SELECT version FROM ssb.catalog_version WHERE id = 1";
    /** How many of {@link #CATALOG_TABLES} have the enabled trigger that raises {@link #catalogVersion}. */
    private final String catalogTriggers = "SELECT count(*) FROM pg_catalog.pg_trigger t"
            + " JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname = 'ssb' AND t.tgname = 'catalog_changed' AND t.tgenabled IN ('O', 'A')"
            + " AND c.relname IN ('" + String.join("', '", CATALOG_TABLES) + "')"
            + " AND to_regclass('ssb.catalog_version') IS NOT NULL";
    /**
     * A group's priority set in one statement, replacing the one it had: two transactions setting one group's
     * priority at once wait for each other and the later wins.
     */
    private final String upsertPriority;
    /** {@link #receiveNext}'s texts by {@link #variant}, TOP not yet written in. */
    private final String[] receiveVariants = new String[4];
    /** The texts by TOP and variant (key: TOP * 4 + variant). */
    private final ConcurrentMap<Long, String> receiveNextByTop = new ConcurrentHashMap<>();

    PostgresSql() {
        super(Dialect.POSTGRESQL);
        String turn = nextTurnValue;
        // a new group has no message yet: parked (the SEND that puts one there gives it its turn)
        insertGroup = "INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn) VALUES (?, ?, "
                + turn + " + " + PARKED + ")";
        insertGroupAndEndpoint = "WITH g AS (" + insertGroup + ") " + insertEndpoint;
        attemptsOfMessages = "SELECT k.conversation_handle, k.message_sequence_number, a.attempts"
                + " FROM unnest(CAST(? AS UUID[]), CAST(? AS BIGINT[])) AS k(conversation_handle,"
                + " message_sequence_number) CROSS JOIN LATERAL " + attemptsProbe("k");
        String hasMessages = HAS_ANY_MESSAGE;
        // one primary-key probe per group, the rows updated taken by their address
        unparkGroups = "UPDATE ssb.conversation_group u SET turn = " + turn
                + " WHERE u.ctid = ANY (ARRAY(SELECT l.ctid FROM unnest(CAST(? AS UUID[])) AS k(id)"
                + " CROSS JOIN LATERAL (SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.conversation_group_id = k.id AND g.turn >= " + PARKED + " AND " + hasMessages
                + " LIMIT 1 FOR UPDATE SKIP LOCKED) l)) RETURNING u.queue_name";
        // A whole queue's groups: one index probe of the messages per group. OFFSET 0 keeps the subquery from being
        // turned into a join, which statistics taken while the queue was empty would plan as a nested loop reading
        // every message once per group.
        String probesMessages = "EXISTS (SELECT 1 FROM ssb.message m"
                + " WHERE m.conversation_group_id = g.conversation_group_id OFFSET 0)";
        unparkQueue = "UPDATE ssb.conversation_group u SET turn = " + turn
                + " WHERE u.ctid = ANY (ARRAY(SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.queue_name = ? AND g.turn >= " + PARKED + " AND " + probesMessages
                + " FOR UPDATE SKIP LOCKED)) RETURNING u.conversation_group_id";
        parkQueue = "UPDATE ssb.conversation_group u SET turn = u.turn + " + PARKED
                + " WHERE u.ctid = ANY (ARRAY(SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.queue_name = ? AND g.turn < " + PARKED + " AND NOT " + probesMessages
                + " FOR UPDATE SKIP LOCKED)) RETURNING u.conversation_group_id";
        turnOrPark = "UPDATE ssb.conversation_group g SET turn = " + turn + " + CASE WHEN " + hasMessages
                + " THEN 0 ELSE " + PARKED + " END WHERE g.conversation_group_id = ? RETURNING g.turn >= " + PARKED
                + " AS parked";
        // SKIP LOCKED: a SEND never waits, also not for a transaction that holds the group in a RECEIVE of one
        // conversation; that holder's check after its commit gives the turn
        String unparkInserted = " UPDATE ssb.conversation_group u SET turn = " + turn
                + " WHERE u.ctid = (SELECT g.ctid FROM ssb.conversation_group g"
                + " WHERE g.conversation_group_id = (SELECT conversation_group_id FROM m) AND g.turn >= " + PARKED
                + " FOR UPDATE SKIP LOCKED)";
        insertMessage = "WITH m AS (" + INSERT_MESSAGE + " RETURNING conversation_group_id)" + unparkInserted;
        String checked = " FROM k WHERE k.from_queue IS NOT NULL AND k.target_exists AND k.contract_exists";
        beginDialog = "WITH k AS (" + dialogChecks + "),"
                + " g AS (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), k.from_queue, " + turn + " + " + PARKED + checked + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at)"
                + " SELECT CAST(? AS UUID), CAST(? AS UUID), CAST(? AS BOOLEAN), CAST(? AS UUID),"
                + " CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS CHAR(2)), 0,"
                + " CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE)" + checked + ")"
                + " SELECT k.from_queue, k.target_exists, k.contract_exists FROM k";
        String passed = " FROM k WHERE k.sent_by = ANY (CAST(? AS VARCHAR[]))"
                + " AND k.validation = ANY (CAST(? AS VARCHAR[])) AND k.receives";
        String message = "INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle,"
                + " message_sequence_number, message_type_name, message_body, enqueued_at, trace_context)"
                + " SELECT ok.queue_name, CAST(? AS UUID), CAST(? AS UUID), CAST(? AS BIGINT), CAST(? AS VARCHAR(256)),"
                + " CAST(? AS BYTEA), CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS VARCHAR(1024)) FROM ok";
        String senderUpdate = "UPDATE ssb.conversation_endpoint SET send_sequence = CAST(? AS BIGINT), state = '"
                + Endpoint.CONVERSING + "' WHERE conversation_handle = CAST(? AS UUID) AND EXISTS (SELECT 1 FROM ok)"
                + " RETURNING 1";
        String targetGroup = "INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), ok.queue_name, " + turn + " FROM ok";
        // an endpoint's values from the checks' row: handle, conversation, (initiator), group, service, far service,
        // contract, (state CONVERSING, sequence), lifetime, creation time
        String endpointFromOk = "SELECT CAST(? AS UUID), CAST(? AS UUID), %s, CAST(? AS UUID),"
                + " CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), CAST(? AS VARCHAR(256)), '" + Endpoint.CONVERSING
                + "', %d, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE) FROM ok";
        String target = String.format(java.util.Locale.ROOT, endpointFromOk, "FALSE", 0);
        sendFirstChecked = "WITH k AS (" + sendChecks + "),"
                + " ok AS (SELECT k.queue_name" + passed + " AND k.accepts),"
                + " g AS (" + targetGroup + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at) " + target + "),"
                + " m AS (" + message + "), s AS (" + senderUpdate + ")"
                + " SELECT k.*, EXISTS (SELECT 1 FROM ok), (SELECT count(*) FROM s) FROM k";
        // the rows of BEGIN DIALOG and its first SEND, from CTE ok (the target's queue and the initiator's)
        String dialogRows = " ig AS (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                + " SELECT CAST(? AS UUID), ok.from_queue, " + turn + " + " + PARKED + " FROM ok),"
                + " tg AS (" + targetGroup + "),"
                + " e AS (INSERT INTO ssb.conversation_endpoint (" + ENDPOINT_COLUMNS + ", created_at) "
                + String.format(java.util.Locale.ROOT, endpointFromOk, "TRUE", 1) + " UNION ALL " + target + "),"
                + " m AS (" + message + ")";
        String dialogAndSendChecks = "SELECT (SELECT queue_name FROM ssb.service WHERE service_name = ?) AS from_queue,"
                + " EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = ?) AS contract_exists, c.*"
                + " FROM (" + sendChecks + ") c";
        beginDialogAndSend = "WITH k AS (" + dialogAndSendChecks + "),"
                + " ok AS (SELECT k.queue_name, k.from_queue" + passed
                + " AND k.accepts AND k.from_queue IS NOT NULL AND k.contract_exists)," + dialogRows
                + " SELECT (SELECT queue_name FROM ok), k.* FROM k";
        sendChecked = "WITH k AS (" + sendChecks + "),"
                + " ok AS (SELECT k.queue_name" + passed + "),"
                + " m AS (" + message + " RETURNING conversation_group_id), s AS (" + senderUpdate + "),"
                + " t AS (" + unparkInserted.trim() + " RETURNING 1)"
                + " SELECT k.*, EXISTS (SELECT 1 FROM ok), EXISTS (SELECT 1 FROM t) FROM k";
        String version = " FROM ssb.catalog_version v WHERE v.id = 1 AND v.version = CAST(? AS BIGINT)";
        String knownDialogChecks = "SELECT CAST(? AS VARCHAR(128)) AS from_queue,"
                + " CAST(? AS BOOLEAN) AS target_exists, CAST(? AS BOOLEAN) AS contract_exists" + version;
        String knownSendChecks = "SELECT CAST(? AS VARCHAR(9)) AS sent_by,"
                + " CAST(? AS VARCHAR(15)) AS validation, CAST(? AS BOOLEAN) AS type_exists,"
                + " CAST(? AS VARCHAR(128)) AS queue_name, CAST(? AS BOOLEAN) AS accepts,"
                + " CAST(? AS BOOLEAN) AS receives" + version;
        beginDialogKnown = withChecks(beginDialog, dialogChecks, knownDialogChecks);
        sendFirstKnown = withChecks(sendFirstChecked, sendChecks, knownSendChecks);
        sendKnown = withChecks(sendChecked, sendChecks, knownSendChecks);
        beginDialogAndSendKnown = withChecks(beginDialogAndSend, dialogAndSendChecks,
                "SELECT CAST(? AS VARCHAR(128)) AS from_queue, CAST(? AS BOOLEAN) AS contract_exists, c.*"
                + " FROM (" + knownSendChecks + ") c");
        upsertPriority = insertPriority + " ON CONFLICT (conversation_group_id)"
                + " DO UPDATE SET queue_name = EXCLUDED.queue_name, priority = EXCLUDED.priority,"
                + " request_order = EXCLUDED.request_order, requested_at = EXCLUDED.requested_at";
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
            receiveVariants[variant(true, holds)] = receiveFrom("COALESCE(" + prioritised + ", " + roundRobin + ")");
            receiveVariants[variant(false, holds)] = receiveFrom(roundRobin);
        }
    }

    @Override
    boolean receivesInOneStatement() {
        return true;
    }

    @Override
    boolean parksDrainedGroups() {
        return true;
    }

    @Override
    boolean writesInOneStatement() {
        return true;
    }

    @Override
    boolean upsertsPriority() {
        return true;
    }

    @Override
    String insertGroup() {
        return insertGroup;
    }

    @Override
    String insertMessage() {
        return insertMessage;
    }

    @Override
    String attemptsOfMessages() {
        return attemptsOfMessages;
    }

    @Override
    String lockWait(int millis) {
        return "SET LOCAL lock_timeout = '" + millis + "ms'";
    }

    /**
     * The whole RECEIVE from a queue in one round trip, with the same choices as H2's statements: the first group with
     * messages that no other transaction holds (prioritised groups first, highest priority then earliest request,
     * unless {@code prioritised} is false; then round-robin turn order), locked with SKIP LOCKED; its first TOP
     * messages deleted and returned with their endpoint's columns; the group given a new turn, or parked when it kept
     * none. Nothing from a disabled queue, nor (with {@code holds}) from a group a redelivery delay holds.
     *
     * <p>One snapshot for the whole statement: messages it picked may have been deleted meanwhile by a transaction
     * that committed, so it may return fewer than TOP; when it took none of those it picked it returns one row of
     * NULLs (a NULL queuing order), and the caller runs it again with a new snapshot.
     *
     * <p>Columns, besides the message's: {@code parked} (its group was left without messages), {@code took_last}
     * (parked, and no other group of the queue had its turn: the last messages waiting were taken), and
     * {@code recorded_attempts} (the failed deliveries the ledger held for the message, NULL for none, read with the
     * statement's snapshot: a failure committed while the statement ran can be missed).
     *
     * <p>Parameters: queue, [now,] queue, [now,] queue, queue with the prioritised part; queue, [now,] queue, queue
     * without; the times only with {@code holds}. TOP is written into the text (a parameter there made PostgreSQL plan
     * the statement at every execution).
     *
     * @param top messages to take at most, 1 or more
     * @param prioritised whether prioritised groups are tried first
     * @param holds whether groups held by a redelivery delay are left out
     * @return the statement's text
     */
    @Override
    String receiveNext(int top, boolean prioritised, boolean holds) {
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

    /**
     * Run just before a statement kept prepared ({@link #receiveNext}, BEGIN DIALOG and SEND in one statement, the
     * lock of a conversation), in its round trip: for the rest of the transaction the planner chooses no sequential
     * scan where an index serves, the setting it replaces kept aside. Such a statement settles on a generic plan,
     * made once with the statistics and the tables' sizes of that moment: made while the adapter's tables were small
     * or analysed empty, it would otherwise go on scanning them whole as they grow, until an {@code ANALYZE}. One
     * column, one row.
     */
    @Override
    String keptPlanning() {
        return "SELECT set_config('ssbjca.enable_seqscan', current_setting('enable_seqscan'), true),"
                + " set_config('enable_seqscan', 'off', true)";
    }

    /**
     * Run just after a statement kept prepared, in its round trip: the planner's setting {@link #keptPlanning}
     * replaced is back, so the application's statements in the same transaction are planned as its session says.
     */
    @Override
    String keptPlanningEnded() {
        return "SELECT set_config('enable_seqscan', current_setting('ssbjca.enable_seqscan'), true)";
    }

    @Override
    String turnOrPark() {
        return turnOrPark;
    }

    @Override
    String unparkQueue() {
        return unparkQueue;
    }

    @Override
    String parkQueue() {
        return parkQueue;
    }

    @Override
    String beginDialog() {
        return beginDialog;
    }

    @Override
    String beginDialogKnown() {
        return beginDialogKnown;
    }

    @Override
    String beginDialogAndSend() {
        return beginDialogAndSend;
    }

    @Override
    String beginDialogAndSendKnown() {
        return beginDialogAndSendKnown;
    }

    @Override
    String sendFirstChecked() {
        return sendFirstChecked;
    }

    @Override
    String sendFirstKnown() {
        return sendFirstKnown;
    }

    @Override
    String sendChecked() {
        return sendChecked;
    }

    @Override
    String sendKnown() {
        return sendKnown;
    }

    @Override
    String insertGroupAndEndpoint() {
        return insertGroupAndEndpoint;
    }

    @Override
    String catalogVersion() {
        return catalogVersion;
    }

    @Override
    String catalogTriggers() {
        return catalogTriggers;
    }

    @Override
    String upsertPriority() {
        return upsertPriority;
    }

    private static int variant(boolean prioritised, boolean holds) {
        return (prioritised ? 2 : 0) + (holds ? 1 : 0);
    }

    /** @return {@code statement}, whose first common table expression is {@code k AS (checks)}, with {@code known} */
    private static String withChecks(String statement, String checks, String known) {
        String k = "WITH k AS (" + checks + "),";
        if (!statement.startsWith(k)) {
            throw new IllegalStateException("not a statement with checks: " + statement);
        }
        return "WITH k AS (" + known + ")," + statement.substring(k.length());
    }

    /**
     * @param message the alias of rows with a message's {@code conversation_handle} and {@code message_sequence_number}
     * @return a {@code LATERAL} subquery {@code a} of the failed deliveries recorded for each: one probe of the
     *     ledger's primary key
     */
    private static String attemptsProbe(String message) {
        return "(SELECT a.attempts FROM ssb.delivery_attempt a WHERE a.conversation_handle = " + message
                + ".conversation_handle AND a.message_sequence_number = " + message
                + ".message_sequence_number LIMIT 1) a";
    }

    /** {@link #receiveNext}'s text, the group chosen by {@code pick}. */
    private String receiveFrom(String pick) {
        return "WITH grp AS MATERIALIZED (SELECT " + pick + " AS conversation_group_id"
                + " WHERE EXISTS (SELECT 1 FROM ssb.service_queue q WHERE q.queue_name = ? AND q.is_receive_enabled)),"
                + " picked AS MATERIALIZED (SELECT m.ctid, m.queuing_order FROM ssb.message m"
                + " WHERE m.conversation_group_id = (SELECT conversation_group_id FROM grp)"
                + " ORDER BY m.queuing_order LIMIT " + TOP_PLUS_ONE + "),"
                + " taken AS (DELETE FROM ssb.message d WHERE d.ctid = ANY (ARRAY(SELECT p.ctid FROM picked p"
                + " ORDER BY p.queuing_order LIMIT " + TOP + "))"
                + " AND d.conversation_group_id = (SELECT conversation_group_id FROM grp) RETURNING d.*),"
                + " turn AS (UPDATE ssb.conversation_group SET turn = " + nextTurnValue
                + " + CASE WHEN (SELECT count(*) FROM picked) > " + TOP + " THEN 0 ELSE " + PARKED + " END"
                + " WHERE conversation_group_id = (SELECT conversation_group_id FROM grp)"
                + " AND EXISTS (SELECT 1 FROM taken) RETURNING turn >= " + PARKED + " AS parked)"
                + " SELECT " + messageColumns(Dialect.POSTGRESQL)
                + ", (SELECT t.parked FROM turn t) AS parked,"
                + " CASE WHEN (SELECT t.parked FROM turn t) THEN NOT EXISTS (SELECT 1 FROM ssb.conversation_group o"
                + " WHERE o.queue_name = ? AND o.turn < " + PARKED
                + " AND o.conversation_group_id <> (SELECT conversation_group_id FROM grp)) ELSE FALSE END"
                + " AS took_last, a.attempts AS recorded_attempts"
                + " FROM taken m"
                + " LEFT JOIN LATERAL (SELECT x.conversation_id, x.service_name, x.service_contract_name"
                + " FROM ssb.conversation_endpoint x WHERE x.conversation_handle = m.conversation_handle LIMIT 1) e"
                + " ON TRUE"
                + " LEFT JOIN LATERAL " + attemptsProbe("m") + " ON TRUE"
                // the marker: picked messages, none of them left to take
                + " UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
                + " WHERE EXISTS (SELECT 1 FROM picked) AND NOT EXISTS (SELECT 1 FROM taken)"
                + " ORDER BY queuing_order";
    }
}
