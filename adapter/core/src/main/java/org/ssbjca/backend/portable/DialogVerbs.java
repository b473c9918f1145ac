package org.ssbjca.backend.portable;

import org.ssbjca.support.Tracing;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.MessageTypes;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.Statements;
import org.ssbjca.backend.Validation;

/**
 * The conversation verbs of a {@link PortableSession}: BEGIN DIALOG, SEND, END CONVERSATION (with error, with
 * cleanup), BEGIN CONVERSATION TIMER, MOVE CONVERSATION. Each locks both endpoint rows of the conversation in one
 * statement, always in the same order, so two sessions never deadlock on them.
 */
final class DialogVerbs {

    private final PortableBroker broker;
    private final PortableSql sql;
    private final Connection c;
    private final Statements st;
    private final MessageStore messages;
    private final Queue<UUID> removedEndpoints;
    /**
     * The endpoint the last BEGIN DIALOG of this transaction inserted, as inserted, until the next verb or JDBC use:
     * the SEND that follows need not read and lock it again (the row is this transaction's own, uncommitted: no other
     * transaction sees it). Null outside a transaction (autocommit), where another could change the row in between.
     */
    private Endpoint begun;
    /** Whether this session may hold a BEGIN DIALOG back until its first SEND ({@link #held}). */
    private boolean deferring;
    /**
     * A BEGIN DIALOG not yet written (only while {@link #deferring}): its first SEND writes it together with the
     * message in one statement ({@link PortableSql#beginDialogAndSend}), any other verb or the owner's
     * {@link #flush} before the transaction ends writes it alone.
     */
    private volatile Held held;
    /**
     * Why a held BEGIN DIALOG could not be written in this transaction, or null: the transaction must not commit
     * (the caller holds a handle to a dialog that does not exist), even when the caller caught the error.
     */
    private volatile BrokerException heldFailed;
    /**
     * The transaction's number on this session, counted up at each end: a BEGIN DIALOG held in an earlier one (which
     * a transaction manager's thread rolled back meanwhile) is never written into a later one.
     */
    private volatile int transaction;
    /** Whether an XA branch of the owner's is open on the connection ({@link #knowBranchesBy}); never by default. */
    private volatile BooleanSupplier inBranch = () -> false;

    /**
     * A BEGIN DIALOG held back: the initiator's endpoint as it will be written (its group new), when it was called
     * (the endpoint's creation time), and in which {@link #transaction}.
     */
    private record Held(Endpoint endpoint, Instant at, int transaction) {
    }

    DialogVerbs(PortableBroker broker, Statements statements, MessageStore messages, Queue<UUID> removedEndpoints) {
        this.broker = broker;
        this.sql = broker.sql();
        this.st = statements;
        this.c = statements.connection();
        this.messages = messages;
        this.removedEndpoints = removedEndpoints;
    }

    /** Returns the endpoint of a conversation handle, or null. */
    Endpoint endpoint(UUID handle) throws SQLException {
        return st.first("SELECT " + PortableSql.ENDPOINT_COLUMNS
                + " FROM ssb.conversation_endpoint WHERE conversation_handle = ?", Endpoint::read, handle);
    }

    /** Forgets the endpoint the last BEGIN DIALOG inserted: another verb, or the JDBC connection, may change it. */
    void forgetBegun() {
        begun = null;
    }

    /** From now on a BEGIN DIALOG may be held back until its first SEND ({@link #held}). */
    void deferWrites() {
        deferring = true;
    }

    /** @param branchOpen says whether an XA branch of the owner's is open on the connection */
    void knowBranchesBy(BooleanSupplier branchOpen) {
        inBranch = branchOpen;
    }

    /**
     * Returns whether the connection works inside a transaction: an XA branch of the owner's, or its own (auto-commit
     * off). Auto-commit alone does not tell: pgjdbc 42.7.13 and later leave it on inside an XA branch.
     */
    boolean inTransaction() throws SQLException {
        return inBranch.getAsBoolean() || !c.getAutoCommit();
    }

    /**
     * Writes the BEGIN DIALOG held back, if any, before another verb.
     *
     * @throws BrokerException what the BEGIN DIALOG throws when its checks or its statement fail now (the
     *         transaction can then no longer commit: {@link #flushBeforeEnd})
     */
    void flush() {
        Held h = takeHeld();
        if (h != null) {
            writeHeld(h);
        }
    }

    /**
     * Writes a BEGIN DIALOG held back; when that fails, the transaction can no longer commit.
     *
     * @throws BrokerException what the BEGIN DIALOG throws
     */
    private void writeHeld(Held h) {
        try {
            write(h.endpoint(), h.at());
        } catch (SQLException e) {
            throw failedHeld(PortableSession.failure(beginning(h.endpoint()), e));
        } catch (BrokerException e) {
            throw failedHeld(e);
        }
    }

    /**
     * Writes the BEGIN DIALOG held back, if any, before the transaction ends with success.
     *
     * @throws BrokerException when it fails now, or when one failed earlier in this transaction: it must roll back
     */
    void flushBeforeEnd() {
        flush();
        BrokerException failed = heldFailed;
        if (failed != null) {
            throw new BrokerException("the transaction cannot commit: " + failed.getMessage(), failed);
        }
    }

    /** @return the BEGIN DIALOG held back in the current transaction, no longer held; or null */
    private Held takeHeld() {
        Held h = held;
        held = null;
        return h == null || h.transaction() != transaction ? null : h;
    }

    private BrokerException failedHeld(BrokerException e) {
        heldFailed = e;
        return e;
    }

    /**
     * Ends the transaction for the held BEGIN DIALOG: forgets it, and any failure to write one.
     *
     * @return the handle of the dialog held back and not written, or null
     */
    synchronized UUID transactionEnded() {
        Held h = held;
        held = null;
        boolean current = h != null && h.transaction() == transaction;
        transaction++;
        heldFailed = null;
        return current ? h.endpoint().handle : null;
    }

    /**
     * Returns why this transaction must not commit so far (a held BEGIN DIALOG that could not be written), or null:
     * what {@link #undoneTo} puts back after a rollback to a savepoint taken now.
     */
    BrokerException failedSoFar() {
        return heldFailed;
    }

    /**
     * After a rollback to a savepoint taken when nothing was held back and {@link #failedSoFar} returned
     * {@code failedBefore}: a BEGIN DIALOG held or written since, and a failure to write one, went with it.
     *
     * @param failedBefore what {@link #failedSoFar} returned when the savepoint was taken
     */
    synchronized void undoneTo(BrokerException failedBefore) {
        held = null;
        begun = null;
        heldFailed = failedBefore;
    }

    /**
     * Holds the BEGIN DIALOG back when this session may: in a transaction, its checks known to pass. Under the same
     * lock as {@link #transactionEnded}, which a transaction manager's thread may call meanwhile (a timeout): a
     * BEGIN DIALOG is held in the transaction it was called in, or written at once.
     *
     * @return whether it was held back
     */
    private synchronized boolean hold(Endpoint me, Instant now) throws SQLException {
        if (!deferring || !inTransaction() || !knownToPass(me)) {
            return false;
        }
        held = new Held(me, now, transaction);
        return true;
    }

    /**
     * @param mayHold whether it may be held back until the dialog's first SEND (when this session defers writes)
     */
    Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options,
            boolean mayHold) {
        begun = null;
        try {
            Instant now = broker.now();
            Instant expires = expiry(options, now);
            // in a new group on PostgreSQL: the checks, the group and the endpoint in one statement
            if (inNewGroup(options) && sql.writesInOneStatement()) {
                Endpoint me = new Endpoint(UUID.randomUUID(), UUID.randomUUID(), true, UUID.randomUUID(),
                        fromService, toService, contract, Endpoint.STARTED_OUTBOUND, 0, expires);
                if (!mayHold || !hold(me, now)) {
                    write(me, now);
                }
                return new Conversation(me.handle, me.conversationId, me.groupId);
            }
            UUID handle = UUID.randomUUID();
            UUID conversationId = UUID.randomUUID();
            Checks checks = st.first(sql.dialogChecks, Checks::read, fromService, toService, contract);
            checks.refuseUnlessFound(fromService, toService, contract);
            UUID group = initiatorGroup(checks.fromQueue(), options);
            st.update(sql.insertEndpoint, handle, conversationId, true, group, fromService, toService,
                    contract, Endpoint.STARTED_OUTBOUND, expires, now);
            if (inTransaction()) {
                begun = new Endpoint(handle, conversationId, true, group, fromService, toService, contract,
                        Endpoint.STARTED_OUTBOUND, 0, expires);
            }
            return new Conversation(handle, conversationId, group);
        } catch (SQLException e) {
            throw PortableSession.failure("BEGIN DIALOG from '" + fromService + "' to '" + toService + "'", e);
        }
    }

    private static String beginning(Endpoint me) {
        return "BEGIN DIALOG from '" + me.service + "' to '" + me.farService + "'";
    }

    /**
     * BEGIN DIALOG in a new group on PostgreSQL: its checks, the group and the endpoint in one statement, which
     * writes nothing when a check fails.
     *
     * @param me the initiator's endpoint to write, its group new
     * @param now the endpoint's creation time
     * @throws BrokerException when a check fails
     */
    private void write(Endpoint me, Instant now) throws SQLException {
        Checks checks = withChecks(CatalogCache.Checks.DIALOG, sql.beginDialogKnown(), sql.beginDialog(),
                new Object[] {me.service, me.farService, me.contract}, Checks::read, 1, DIALOG_FOUND,
                me.groupId, me.handle, me.conversationId, true, me.groupId, me.service, me.farService, me.contract,
                Endpoint.STARTED_OUTBOUND, Jdbc.orNull(me.lifetimeExpiresAt, java.sql.Types.TIMESTAMP_WITH_TIMEZONE),
                now);
        checks.refuseUnlessFound(me.service, me.farService, me.contract);
        if (inTransaction()) {
            begun = me;
        }
    }

    /**
     * @return whether the broker remembers that BEGIN DIALOG's checks passed for these names ({@link CatalogCache}):
     *         only then is it held back, so that a BEGIN DIALOG that fails its checks still fails when called (unless
     *         another transaction changed the declared objects since they were remembered: then it fails when
     *         written)
     */
    private boolean knownToPass(Endpoint me) {
        CatalogCache.Entry entry = remembered(CatalogCache.Checks.DIALOG, me.service, me.farService, me.contract);
        return entry != null && entry.found()[0] instanceof String && Boolean.TRUE.equals(entry.found()[1])
                && Boolean.TRUE.equals(entry.found()[2]);
    }

    /**
     * BEGIN DIALOG in a new group and its first SEND in one statement (PostgreSQL), which makes the rows only when
     * every check of both passes.
     *
     * @return the new dialog, or null when it made nothing (a check failed, the body needs parsing, the target queue
     *         does not receive, a related conversation or group, H2): {@link #beginDialog} and {@link #send} then say
     *         why or take the longer way, as two calls would
     */
    Conversation beginDialogAndSendInOne(String fromService, String toService, String contract,
            DialogOptions options, String messageType, byte[] body) {
        begun = null;
        if (!sql.writesInOneStatement() || !inNewGroup(options)) {
            return null;
        }
        Instant now = broker.now();
        Endpoint me = new Endpoint(UUID.randomUUID(), UUID.randomUUID(), true, UUID.randomUUID(), fromService,
                toService, contract, Endpoint.STARTED_OUTBOUND, 0, expiry(options, now));
        return writeWithFirstSend(me, now, now, messageType, body)
                ? new Conversation(me.handle, me.conversationId, me.groupId) : null;
    }

    /**
     * BEGIN DIALOG in a new group and its first SEND in one statement ({@link PortableSql#beginDialogAndSend}).
     *
     * @param me the initiator's endpoint, its group new
     * @param began when BEGIN DIALOG was called (the endpoint's creation time)
     * @param sent when SEND was called
     * @return whether it wrote them; false when it wrote nothing (a check failed, the body needs parsing, the target
     *         queue does not receive, a system message type)
     */
    private boolean writeWithFirstSend(Endpoint me, Instant began, Instant sent, String messageType, byte[] body) {
        if (MessageTypes.isSystem(messageType)) {
            return false;
        }
        Object[] names = {me.service, me.contract, messageType, me.contract, me.contract, messageType, me.farService};
        String[] passed = passedBeforeTheStatement(names, messageType, body);
        if (passed == null) {
            return false;
        }
        try {
            UUID target = UUID.randomUUID();
            UUID targetGroup = UUID.randomUUID();
            Object expires = Jdbc.orNull(me.lifetimeExpiresAt, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
            Object[] rows = {me.groupId, targetGroup,
                me.handle, me.conversationId, me.groupId, me.service, me.farService, me.contract, expires, began,
                target, me.conversationId, targetGroup, me.farService, me.service, me.contract, expires, sent,
                targetGroup, target, 0L, messageType, Jdbc.orNull(body, java.sql.Types.BINARY), sent, trace()};
            // the target's queue when it sent (an empty text when it did not: the row itself is what tells)
            String queue = withChecks(CatalogCache.Checks.DIALOG_AND_SEND, sql.beginDialogAndSendKnown(),
                    sql.beginDialogAndSend(), names, rs -> java.util.Objects.requireNonNullElse(rs.getString(1), ""), 2,
                    DIALOG_AND_SEND_FOUND, concat(new Object[] {varchars(SIDES.get(true)), varchars(passed)}, rows));
            if (queue == null || queue.isEmpty()) {
                return false;
            }
            messages.enqueuedInNewGroup(queue, messageType);
            return true;
        } catch (SQLException e) {
            throw PortableSession.failure(beginning(me) + " and SEND", e);
        }
    }

    /**
     * The validations a first SEND's body passes, for {@link PortableSql#beginDialogAndSend}: those it passes
     * unparsed, and, when the broker remembers the message type's validation from an earlier call with these names
     * ({@link CatalogCache}) and the body must be parsed for it, that one once the body passed it here. The
     * statement writes nothing when the type's validation (in its own snapshot) is not among them.
     *
     * @param names the statement's checks' names
     * @return the validations, or null when the body fails the remembered validation (the longer way then says so)
     */
    private String[] passedBeforeTheStatement(Object[] names, String messageType, byte[] body) {
        String[] unparsed = BodyValidator.passedUnparsed(body);
        CatalogCache.Entry entry = remembered(CatalogCache.Checks.DIALOG_AND_SEND, names);
        Object known = entry == null ? null : entry.found()[DIALOG_AND_SEND_VALIDATION];
        if (!(known instanceof String validation) || java.util.Arrays.asList(unparsed).contains(validation)) {
            return unparsed;
        }
        try {
            BodyValidator.check(messageType, Validation.valueOf(validation), body);
        } catch (BrokerException e) {
            return null;
        }
        String[] passed = java.util.Arrays.copyOf(unparsed, unparsed.length + 1);
        passed[unparsed.length] = validation;
        return passed;
    }

    /** The column of the message type's validation among {@link #DIALOG_AND_SEND_FOUND}. */
    private static final int DIALOG_AND_SEND_VALIDATION = 3;

    /** The types of {@link PortableSql#dialogChecks}'s columns. */
    private static final int[] DIALOG_FOUND = {java.sql.Types.VARCHAR, java.sql.Types.BOOLEAN, java.sql.Types.BOOLEAN};
    /** The types of {@link PortableSql#sendChecks}'s columns. */
    private static final int[] SEND_FOUND = {java.sql.Types.VARCHAR, java.sql.Types.VARCHAR, java.sql.Types.BOOLEAN,
        java.sql.Types.VARCHAR, java.sql.Types.BOOLEAN, java.sql.Types.BOOLEAN};
    /** The types of {@link PortableSql#beginDialogAndSend}'s checks' columns: the initiator's queue, the contract. */
    private static final int[] DIALOG_AND_SEND_FOUND = java.util.stream.IntStream.concat(
            java.util.stream.IntStream.of(java.sql.Types.VARCHAR, java.sql.Types.BOOLEAN),
            java.util.Arrays.stream(SEND_FOUND)).toArray();

    /**
     * Runs a statement whose first part checks the declared objects ({@code checked}), or, while the broker
     * remembers what those checks found for the same names at the declared objects' current version
     * ({@link CatalogCache}), the same statement given those findings ({@code known}). A known statement that returns
     * no row found the version moved on: the checked one runs, and what its checks found is remembered with the
     * version read just before it. Both are kept prepared, planned without sequential scans
     * ({@link PortableSql#keptPlanning}).
     *
     * @param names the checks' parameters (the names they are asked about)
     * @param mapper reads the statement's row
     * @param foundAt the column of the first of the checks' columns
     * @param found the types of the checks' columns
     * @param rest the parameters after the checks' (the known statement's after the findings and the version)
     * @return the mapped row, or null when {@code checked} returned none
     */
    private <T> T withChecks(CatalogCache.Checks which, String known, String checked, Object[] names,
            Jdbc.RowMapper<T> mapper, int foundAt, int[] found, Object... rest) throws SQLException {
        CatalogCache catalog = broker.catalogCache();
        CatalogCache.Key key = catalog == null ? null : keyOf(which, names);
        CatalogCache.Entry entry = key == null ? null : catalog.get(key);
        if (entry != null) {
            T row = st.firstBetween(sql.keptPlanning(), known, sql.keptPlanningEnded(), mapper,
                    concat(concat(entry.found(), new Object[] {entry.version()}), rest));
            if (row != null) {
                return row;
            }
            catalog.remove(key, entry);
        }
        Long version = key == null ? null : st.first(sql.catalogVersion(), rs -> rs.getLong(1));
        Object[][] seen = new Object[1][];
        T row = st.firstBetween(sql.keptPlanning(), checked, sql.keptPlanningEnded(), rs -> {
            Object[] values = new Object[found.length];
            for (int i = 0; i < found.length; i++) {
                values[i] = Jdbc.orNull(rs.getObject(foundAt + i), found[i]);
            }
            seen[0] = values;
            return mapper.map(rs);
        }, concat(names, rest));
        if (version != null && seen[0] != null) {
            catalog.put(key, new CatalogCache.Entry(version, seen[0]));
        }
        return row;
    }

    /** @return the cache's key for these checks asked about these names */
    private static CatalogCache.Key keyOf(CatalogCache.Checks which, Object[] names) {
        return new CatalogCache.Key(which, java.util.Arrays.stream(names).map(String.class::cast).toList());
    }

    /** @return what the broker remembers these checks found for these names ({@link CatalogCache}), or null */
    private CatalogCache.Entry remembered(CatalogCache.Checks which, Object... names) {
        CatalogCache catalog = broker.catalogCache();
        return catalog == null ? null : catalog.get(keyOf(which, names));
    }

    private static Object[] concat(Object[] first, Object[] then) {
        Object[] all = java.util.Arrays.copyOf(first, first.length + then.length);
        System.arraycopy(then, 0, all, first.length, then.length);
        return all;
    }

    /** @return whether a dialog begun with these options gets a group of its own (no related conversation or group) */
    private static boolean inNewGroup(DialogOptions options) {
        return options.relatedConversation() == null && options.relatedConversationGroup() == null;
    }

    /** @return when a dialog begun now with these options ends by its lifetime, or null for none */
    private static Instant expiry(DialogOptions options, Instant now) {
        return options.lifetime() == null ? null : now.plus(options.lifetime());
    }

    /** @return the values as a VARCHAR[] parameter */
    private java.sql.Array varchars(String[] values) throws SQLException {
        return c.createArrayOf("varchar", values);
    }

    private UUID initiatorGroup(String queue, DialogOptions options) throws SQLException {
        if (options.relatedConversation() != null) {
            Endpoint related = endpoint(options.relatedConversation());
            if (related == null) {
                throw new ConversationEndedException("BEGIN DIALOG: related conversation "
                        + options.relatedConversation() + " does not exist");
            }
            return ensureGroup(related.groupId, queue);
        }
        if (options.relatedConversationGroup() != null) {
            return ensureGroup(options.relatedConversationGroup(), queue);
        }
        return newGroup(queue);
    }

    private UUID ensureGroup(UUID group, String queue) throws SQLException {
        String existing = st.first(sql.groupQueue, rs -> rs.getString(1), group);
        if (existing == null) {
            st.update(sql.insertGroup(), group, queue);
        } else if (!existing.equals(queue)) {
            throw new BrokerException("conversation group " + group + " belongs to queue '" + existing
                    + "', not to queue '" + queue + "'");
        }
        return group;
    }

    UUID newGroup(String queue) throws SQLException {
        UUID group = UUID.randomUUID();
        st.update(sql.insertGroup(), group, queue);
        return group;
    }

    void send(UUID handle, String messageType, byte[] body) {
        Held h = held;
        if (h != null && h.endpoint().handle.equals(handle) && (h = takeHeld()) != null) {
            boolean written;
            try {
                written = writeWithFirstSend(h.endpoint(), h.at(), broker.now(), messageType, body);
            } catch (BrokerException e) {
                throw failedHeld(e);
            }
            if (written) {
                return;
            }
            // the longer way, as two calls: BEGIN DIALOG alone (it passed its checks when called), then the SEND
            writeHeld(h);
        }
        flush();
        Endpoint fresh = begun != null && begun.handle.equals(handle) ? begun : null;
        begun = null;
        try {
            if (MessageTypes.isSystem(messageType)) {
                throw new BrokerException("SEND: message type '" + messageType
                        + "' is a system message type, sent by the broker only");
            }
            Pair pair = fresh != null ? new Pair(fresh, null) : lockConversation(handle, "SEND");
            Endpoint me = pair.me();
            requireOpen(me, "SEND");
            Endpoint peer = pair.peer();
            SendChecks checks = sendInOne(me, peer, messageType, body, BodyValidator.passedUnparsed(body));
            if (checks == null) {
                return;
            }
            refuseUnlessAllowed(me, peer, checks, messageType, body, null);
            if (checks.receives() && sql.writesInOneStatement()) {
                // PostgreSQL: the body passed its type's validation by parsing; the statement again, accepting it
                Validation parsed = checks.validation();
                checks = sendInOne(me, peer, messageType, body, BodyValidator.every());
                if (checks == null) {
                    return;
                }
                refuseUnlessAllowed(me, peer, checks, messageType, body, parsed);
            }
            if (peer == null) {
                peer = createTarget(me, checks.queue());
            }
            messages.send(me, peer, messageType, body, checks.queue(), checks.receives());
        } catch (SQLException e) {
            throw PortableSession.failure("SEND on conversation " + handle, e);
        }
    }

    /**
     * Throws what a SEND with these checks breaks, in SEND's order: type, contract, side, body, target.
     *
     * @param passed a validation the body was already found to pass, or null
     */
    private static void refuseUnlessAllowed(Endpoint me, Endpoint peer, SendChecks checks, String messageType,
            byte[] body, Validation passed) {
        if (checks.sentBy() == null && !checks.typeExists()) {
            throw new BrokerException("SEND: message type '" + messageType + "' does not exist");
        }
        if (checks.sentBy() == null) {
            throw new BrokerException("SEND: message type '" + messageType + "' is not part of contract '"
                    + me.contract + "'");
        }
        if (!checks.sentBy().allows(me.initiator)) {
            throw new BrokerException("SEND: contract '" + me.contract + "' does not let the " + me.side()
                    + " send message type '" + messageType + "' (SENT BY " + checks.sentBy() + ")");
        }
        if (checks.validation() != passed) {
            BodyValidator.check(messageType, checks.validation(), body);
        }
        if (peer == null) {
            requireTarget(me, checks);
        } else if (checks.queue() == null) {
            throw new BrokerException("service '" + peer.service + "' of conversation " + peer.handle
                    + " no longer exists");
        }
    }

    /**
     * A SEND whose checks pass, in one statement with them (PostgreSQL; elsewhere, and for a dialog whose target
     * endpoint was removed, only the checks).
     *
     * @param passed the validations the body passes ({@link BodyValidator})
     * @return null when it sent, else the checks, for the caller to say why not or to take the longer way (a body to
     *         parse, a queue that does not receive)
     */
    private SendChecks sendInOne(Endpoint me, Endpoint peer, String messageType, byte[] body, String[] passed)
            throws SQLException {
        boolean first = peer == null && me.initiator && Endpoint.STARTED_OUTBOUND.equals(me.state);
        if (!sql.writesInOneStatement() || (!first && peer == null)) {
            return st.first(sql.sendChecks, SendChecks::read, messageType, me.contract, me.contract, messageType,
                    me.farService);
        }
        java.sql.Array sides = varchars(SIDES.get(me.initiator));
        java.sql.Array validations = varchars(passed);
        Instant now = broker.now();
        Outcome outcome;
        Object[] checks = {messageType, me.contract, me.contract, messageType, me.farService};
        if (first) {
            UUID group = UUID.randomUUID();
            UUID target = UUID.randomUUID();
            outcome = withChecks(CatalogCache.Checks.SEND, sql.sendFirstKnown(), sql.sendFirstChecked(), checks,
                    rs -> new Outcome(SendChecks.read(rs), rs.getBoolean(7), rs.getLong(8) == 1, false), 1,
                    SEND_FOUND, sides, validations, group, target, me.conversationId, group, me.farService,
                    me.service, me.contract, Jdbc.orNull(me.lifetimeExpiresAt, java.sql.Types.TIMESTAMP_WITH_TIMEZONE),
                    now, group, target, me.sendSequence, messageType, Jdbc.orNull(body, java.sql.Types.BINARY), now,
                    trace(), me.sendSequence + 1, me.handle);
            if (outcome.sent() && !outcome.senderUpdated()) {
                throw new ConversationEndedException("SEND: conversation handle " + me.handle + " does not exist");
            }
        } else {
            outcome = withChecks(CatalogCache.Checks.SEND, sql.sendKnown(), sql.sendChecked(), checks,
                    rs -> new Outcome(SendChecks.read(rs), rs.getBoolean(7), true, rs.getBoolean(8)), 1, SEND_FOUND,
                    sides, validations, peer.groupId, peer.handle, me.sendSequence, messageType,
                    Jdbc.orNull(body, java.sql.Types.BINARY), now, trace(), me.sendSequence + 1, me.handle);
        }
        if (!outcome.sent()) {
            return outcome.checks();
        }
        if (first) {
            messages.enqueuedInNewGroup(outcome.checks().queue(), messageType);
        } else {
            messages.sentInOne(outcome.checks().queue(), peer.groupId, messageType, outcome.unparked());
        }
        return null;
    }

    /**
     * What a SEND in one statement did: its checks, whether it sent, whether it updated the sender's endpoint (a first
     * SEND says; a later one locked it first) and whether it gave a parked group its turn (a later SEND says).
     */
    private record Outcome(SendChecks checks, boolean sent, boolean senderUpdated, boolean unparked) {
    }

    /** The sending thread's trace context ({@link Tracing#currentContext}) as a statement's parameter. */
    private static Object trace() {
        return Jdbc.orNull(Tracing.get().currentContext(), java.sql.Types.VARCHAR);
    }

    /** The rules ({@code sent_by}) that let each side send: by whether it is the initiator. */
    private static final java.util.Map<Boolean, String[]> SIDES = java.util.Map.of(true, sides(true), false,
            sides(false));

    private static String[] sides(boolean initiator) {
        return java.util.Arrays.stream(SentBy.values()).filter(s -> s.allows(initiator)).map(Enum::name)
                .toArray(String[]::new);
    }

    /** Before the first SEND creates the target endpoint: the dialog may, and its target service accepts it. */
    private static void requireTarget(Endpoint me, SendChecks checks) {
        if (!me.initiator || !Endpoint.STARTED_OUTBOUND.equals(me.state)) {
            throw new ConversationEndedException("SEND: the other side of conversation " + me.handle
                    + " no longer exists (it was ended WITH CLEANUP)");
        }
        if (checks.queue() == null) {
            throw new BrokerException("SEND: target service '" + me.farService + "' does not exist");
        }
        if (!checks.acceptsContract()) {
            throw new BrokerException("SEND: target service '" + me.farService + "' does not accept contract '"
                    + me.contract + "'");
        }
    }

    private Endpoint createTarget(Endpoint me, String queue) throws SQLException {
        UUID handle = UUID.randomUUID();
        UUID group;
        if (sql.writesInOneStatement()) { // the group and the endpoint in one statement
            group = UUID.randomUUID();
            st.update(sql.insertGroupAndEndpoint(), group, queue, handle, me.conversationId, false, group,
                    me.farService, me.service, me.contract, Endpoint.CONVERSING, me.lifetimeExpiresAt, broker.now());
        } else {
            group = newGroup(queue);
            st.update(sql.insertEndpoint, handle, me.conversationId, false, group, me.farService, me.service,
                    me.contract, Endpoint.CONVERSING, me.lifetimeExpiresAt, broker.now());
        }
        return new Endpoint(handle, me.conversationId, false, group, me.farService, me.service, me.contract,
                Endpoint.CONVERSING, 0, me.lifetimeExpiresAt);
    }

    void endConversation(UUID handle, Integer errorCode, String errorDescription) {
        begun = null;
        String verb = errorCode == null ? "END CONVERSATION" : "END CONVERSATION WITH ERROR";
        if (errorCode != null) {
            if (errorCode <= 0) {
                throw new IllegalArgumentException("the error code must be greater than 0: " + errorCode);
            }
            if (errorDescription == null || errorDescription.length() > 3000) {
                throw new IllegalArgumentException("the error description must be given, at most 3000 characters");
            }
        }
        try {
            Pair pair = lockConversation(handle, verb);
            Endpoint me = pair.me();
            if (me.hasEnded()) {
                throw new ConversationEndedException(verb + ": this side of conversation " + handle
                        + " has already ended");
            }
            st.update(sql.deleteMessagesOfConversation, me.handle);
            st.update(sql.deleteAttemptsOfConversation, me.handle);
            if (errorCode != null) {
                st.update(sql.deleteTransmissionsFrom, me.handle);
            }
            Endpoint peer = pair.peer();
            if (peer != null && peer.isOpen()) {
                if (errorCode == null) {
                    messages.send(me, peer, MessageTypes.END_DIALOG, null);
                } else {
                    messages.send(me, peer, MessageTypes.ERROR, ErrorBody.of(errorCode, errorDescription));
                }
                st.update(sql.updateState,
                        errorCode == null ? Endpoint.DISCONNECTED_INBOUND : Endpoint.ERROR, peer.handle);
            }
            if (peer == null || peer.hasEnded()) {
                remove(me);
                if (peer != null) {
                    remove(peer);
                }
            } else {
                st.update(sql.updateSendSequence, me.sendSequence + 1, Endpoint.DISCONNECTED_OUTBOUND,
                        me.handle);
            }
        } catch (SQLException e) {
            throw PortableSession.failure(verb + " on conversation " + handle, e);
        }
    }

    void endConversationWithCleanup(UUID handle) {
        begun = null;
        try {
            Pair pair = lockConversation(handle, "END CONVERSATION WITH CLEANUP");
            remove(pair.me());
        } catch (SQLException e) {
            throw PortableSession.failure("END CONVERSATION WITH CLEANUP on conversation " + handle, e);
        }
    }

    /**
     * Deletes an endpoint with its messages (and their failed deliveries), its unsent messages, and its group if no
     * other endpoint uses it.
     */
    private void remove(Endpoint e) throws SQLException {
        st.update(sql.deleteMessagesOfConversation, e.handle);
        st.update(sql.deleteAttemptsOfConversation, e.handle);
        st.update(sql.deleteTransmissionsFrom, e.handle);
        st.update(sql.deleteTransmissionsTo, e.handle);
        st.update(sql.deleteEndpoint, e.handle);
        removedEndpoints.add(e.handle);
        if (st.exists(sql.tryLockGroup, e.groupId)
                && st.update(sql.deleteUnusedGroup, e.groupId, e.groupId) > 0) {
            st.update(sql.deletePriority, e.groupId);
        }
    }

    void beginConversationTimer(UUID handle, Duration timeout) {
        begun = null;
        if (timeout == null || timeout.toSeconds() < 1) {
            throw new IllegalArgumentException("a conversation timer needs at least one second: " + timeout);
        }
        try {
            Endpoint me = lockConversation(handle, "BEGIN CONVERSATION TIMER").me();
            if (me.hasEnded()) {
                throw new ConversationEndedException("BEGIN CONVERSATION TIMER: this side of conversation " + handle
                        + " has ended");
            }
            st.update(sql.setTimer, broker.now().plus(timeout), handle);
        } catch (SQLException e) {
            throw PortableSession.failure("BEGIN CONVERSATION TIMER on conversation " + handle, e);
        }
    }

    void moveConversation(UUID handle, UUID group) {
        begun = null;
        try {
            Endpoint me = lockConversation(handle, "MOVE CONVERSATION").me();
            String fromQueue = st.first(sql.lockGroup, rs -> rs.getString(1), me.groupId);
            String toQueue = st.first(sql.lockGroup, rs -> rs.getString(1), group);
            if (toQueue == null) {
                throw new BrokerException("MOVE CONVERSATION: conversation group " + group + " does not exist");
            }
            if (!toQueue.equals(fromQueue)) {
                throw new BrokerException("MOVE CONVERSATION: conversation group " + group + " belongs to queue '"
                        + toQueue + "', conversation " + handle + " to queue '" + fromQueue + "'");
            }
            st.update(sql.moveEndpoint, group, handle);
            st.update(sql.moveMessages, group, handle);
            st.update(sql.unparkHeld, group); // this transaction holds the group: a turn if it has messages now
            messages.heldUntilCommit(group);
            if (st.update(sql.deleteUnusedGroup, me.groupId, me.groupId) > 0) {
                st.update(sql.deletePriority, me.groupId);
            }
        } catch (SQLException e) {
            throw PortableSession.failure("MOVE CONVERSATION " + handle + " to group " + group, e);
        }
    }

    private Pair lockConversation(UUID handle, String verb) throws SQLException {
        if (handle == null) {
            throw new IllegalArgumentException(verb + ": the conversation handle is null");
        }
        List<Endpoint> sides = sql.writesInOneStatement()
                ? st.listBetween(sql.keptPlanning(), sql.lockConversation, sql.keptPlanningEnded(), Endpoint::read,
                        handle)
                : st.list(sql.lockConversation, Endpoint::read, handle);
        Endpoint me = null;
        Endpoint peer = null;
        for (Endpoint e : sides) {
            if (e.handle.equals(handle)) {
                me = e;
            } else {
                peer = e;
            }
        }
        if (me == null && broker.endedEndpoints().hasEnded(handle)) {
            throw new ConversationEndedException(verb + ": conversation handle " + handle
                    + " no longer exists: this side of the conversation has ended");
        }
        if (me == null) {
            throw new ConversationEndedException(verb + ": conversation handle " + handle
                    + " does not exist (never begun, or both sides ended)");
        }
        return new Pair(me, peer);
    }

    private static void requireOpen(Endpoint me, String verb) {
        if (me.isOpen()) {
            return;
        }
        String why = switch (me.state) {
            case Endpoint.DISCONNECTED_OUTBOUND -> "this side has ended it";
            case Endpoint.DISCONNECTED_INBOUND -> "the other side has ended it (state DI)";
            default -> "it is in error (state ER): the other side ended it with an error, or its lifetime expired";
        };
        throw new ConversationEndedException(verb + ": conversation " + me.handle + " cannot be used: " + why);
    }

    /** The two endpoints of a conversation, locked; {@code peer} is null before the target exists or after it went. */
    private record Pair(Endpoint me, Endpoint peer) {
    }

    /** BEGIN DIALOG's checks: the initiator service's queue (null: none), the target service, the contract. */
    private record Checks(String fromQueue, boolean targetExists, boolean contractExists) {

        static Checks read(java.sql.ResultSet rs) throws SQLException {
            return new Checks(rs.getString(1), rs.getBoolean(2), rs.getBoolean(3));
        }

        /** Throws what BEGIN DIALOG says when a check failed: service, target service, contract. */
        void refuseUnlessFound(String fromService, String toService, String contract) {
            if (fromQueue == null) {
                throw new BrokerException("BEGIN DIALOG: service '" + fromService + "' does not exist");
            }
            if (!targetExists) {
                throw new BrokerException("BEGIN DIALOG: target service '" + toService + "' does not exist");
            }
            if (!contractExists) {
                throw new BrokerException("BEGIN DIALOG: contract '" + contract + "' does not exist");
            }
        }
    }

    /**
     * What a SEND reads of the declared objects ({@link PortableSql#sendChecks}): the contract's rule for the
     * message type (null when it has none), whether the type exists, the target service's queue (null: no such
     * service), whether it accepts the contract, whether its queue receives.
     */
    private record SendChecks(SentBy sentBy, Validation validation, boolean typeExists, String queue,
            boolean acceptsContract, boolean receives) {

        static SendChecks read(java.sql.ResultSet rs) throws SQLException {
            String sentBy = rs.getString(1);
            String validation = rs.getString(2);
            return new SendChecks(sentBy == null ? null : SentBy.valueOf(sentBy),
                    validation == null ? null : Validation.valueOf(validation), rs.getBoolean(3), rs.getString(4),
                    rs.getBoolean(5), Boolean.TRUE.equals(rs.getObject(6, Boolean.class)));
        }
    }
}
