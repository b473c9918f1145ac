package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DueTime;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Received;
import org.ssbjca.backend.Statements;
import org.ssbjca.backend.TouchedQueues;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.FlightEvents;
import org.ssbjca.support.ReceiveEvent;

/**
 * The Service Broker verbs on the portable schema. Conversation state changes lock both endpoint rows of the
 * conversation in one statement (always in the same order, so two sessions never deadlock on them); RECEIVE locks the
 * conversation group row with SKIP LOCKED, so readers never wait for each other.
 */
final class PortableSession implements BrokerSession {

    private static final AdapterLog LOG = AdapterLog.of(PortableSession.class);

    private final PortableBroker broker;
    private final PortableSql sql;
    /** The connection handed out by {@link #connection()}: the pool's handle, which guards the transaction. */
    private final Connection handle;
    /** The verbs' statements, on the connection under the handle ({@link #statementsOn}). */
    private final Statements st;
    private final TouchedQueues touchedQueues = new TouchedQueues();
    private final GroupPresence.TransactionSets prioritiesSet = new GroupPresence.TransactionSets();
    private final java.util.Queue<UUID> removedEndpoints = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final MessageStore messages;
    private final DialogVerbs dialogs;
    private final Set<String> waitingOn = ConcurrentHashMap.newKeySet();
    private volatile boolean cancelled;
    private final AtomicBoolean woken = new AtomicBoolean();
    /**
     * Looks at a whole queue still to run before an empty one makes this session's RECEIVE sleep ({@link
     * Dialect#primingLooks}); -1 until its first RECEIVE. Read and written by the thread that receives.
     */
    private int primingLooks = -1;
    /** The earliest due time of the scheduled sends of the current transaction; null: none. */
    private java.time.Instant scheduledDue;

    PortableSession(PortableBroker broker, Connection connection) {
        this.broker = broker;
        this.sql = broker.sql();
        this.handle = connection;
        this.st = new Statements(statementsOn(connection));
        this.messages = new MessageStore(broker, st, touchedQueues);
        this.dialogs = new DialogVerbs(broker, st, messages, removedEndpoints);
    }

    /**
     * The driver's own connection under a pooled or XA handle ({@link Connection#unwrap}), for the verbs' statements
     * (docs/design/verbs-on-unwrapped-connection.md). The verbs only prepare and run statements on it; the transaction
     * is still begun, ended and completed through the handle and its XA resource. H2's handle is its connection.
     *
     * @param connection a connection, perhaps a handle
     * @return the connection under it, or the connection itself
     */
    static Connection statementsOn(Connection connection) {
        try {
            Connection under = connection.unwrap(Connection.class);
            return under != null ? under : connection;
        } catch (SQLException | RuntimeException e) {
            return connection;
        }
    }

    @Override
    public Connection connection() {
        settle();
        return handle;
    }

    /**
     * Before a verb other than SEND, or the caller's own SQL: the BEGIN DIALOG held back is written, and the endpoint
     * the last one wrote is forgotten (the verb or the SQL may change it).
     */
    private void settle() {
        dialogs.flush();
        dialogs.forgetBegun();
    }

    @Override
    public void deferWrites() {
        dialogs.deferWrites();
    }

    @Override
    public void knowBranchesBy(BooleanSupplier branchOpen) {
        dialogs.knowBranchesBy(branchOpen);
    }

    @Override
    public void flush() {
        dialogs.flushBeforeEnd();
    }

    @Override
    public Conversation beginDialog(String fromService, String toService, String contract, DialogOptions options) {
        settle();
        return dialogs.beginDialog(fromService, toService, contract, options, true);
    }

    @Override
    public Conversation beginDialogAndSend(String fromService, String toService, String contract,
            DialogOptions options, String messageType, byte[] body) {
        settle();
        Conversation sent = dialogs.beginDialogAndSendInOne(fromService, toService, contract, options, messageType,
                body);
        if (sent != null) {
            return sent;
        }
        // the longer way, as two calls would take it; not held back: the one statement just wrote nothing
        Conversation conversation = dialogs.beginDialog(fromService, toService, contract, options, false);
        dialogs.send(conversation.handle(), messageType, body);
        return conversation;
    }

    @Override
    public void send(UUID handle, String messageType, byte[] body) {
        dialogs.send(handle, messageType, body);
    }

    @Override
    public ScheduledSend scheduleSend(UUID handle, String messageType, byte[] body, DueTime due) {
        ScheduledSend scheduled = ScheduledSends.schedule(broker, this, handle, messageType, body, due);
        if (scheduledDue == null || scheduled.dueAt().isBefore(scheduledDue)) {
            scheduledDue = scheduled.dueAt();
        }
        return scheduled;
    }

    @Override
    public boolean cancelScheduledSend(UUID id) {
        settle();
        return ScheduledSends.cancel(broker, this, id);
    }

    /**
     * In a transaction: a savepoint ({@link PortableSql#SAVEPOINT}) before the verbs, what they held back written
     * before its release, and on their failure the rollback to it, after which this session forgets what they began
     * or held back. Its other notes of the transaction stay (queues to signal, groups to check, endpoints removed):
     * after the commit they cost a look that finds nothing. Outside one (autocommit, no XA branch open) there is no
     * savepoint to take: the default.
     */
    @Override
    public BrokerException attempt(Runnable verbs, Runnable cleanup) {
        settle();
        try {
            if (!dialogs.inTransaction()) {
                return BrokerSession.super.attempt(verbs, cleanup);
            }
            st.update(PortableSql.SAVEPOINT);
        } catch (SQLException e) {
            throw failure("SAVEPOINT", e);
        }
        BrokerException failedBefore = dialogs.failedSoFar();
        try {
            verbs.run();
            settle();
        } catch (BrokerException failed) {
            try {
                st.update(PortableSql.ROLLBACK_TO_SAVEPOINT);
            } catch (SQLException e) {
                BrokerException notUndone = failure("ROLLBACK TO SAVEPOINT", e);
                notUndone.addSuppressed(failed);
                throw notUndone;
            }
            dialogs.undoneTo(failedBefore);
            return failed;
        }
        try {
            st.update(PortableSql.RELEASE_SAVEPOINT);
        } catch (SQLException e) {
            throw failure("RELEASE SAVEPOINT", e);
        }
        return null;
    }

    @Override
    public void endConversation(UUID handle, Integer errorCode, String errorDescription) {
        settle();
        dialogs.endConversation(handle, errorCode, errorDescription);
    }

    @Override
    public void endConversationWithCleanup(UUID handle) {
        settle();
        dialogs.endConversationWithCleanup(handle);
    }

    @Override
    public void beginConversationTimer(UUID handle, Duration timeout) {
        settle();
        dialogs.beginConversationTimer(handle, timeout);
    }

    @Override
    public void moveConversation(UUID handle, UUID group) {
        settle();
        dialogs.moveConversation(handle, group);
    }

    @Override
    public Optional<UUID> getConversationGroup(String queue, Duration timeout) {
        settle();
        waitingOn.add(queue);
        return Optional.ofNullable(broker.waiting().await(queue, timeout, true, this::waitEnds, this::waitEnding, () -> {
            messages.requireEnabled(queue);
            UUID group = messages.lockNextGroup(queue);
            broker.housekeeping().runIfDue(this, group != null);
            return group;
        }));
    }

    @Override
    public Received receive(ReceiveRequest request, boolean priorities, boolean skipHeld) {
        settle();
        waitingOn.add(request.queue());
        boolean checkedByReceive = messages.checksEnabled(request);
        boolean wholeQueue = MessageStore.wholeQueue(request);
        if (primingLooks < 0) {
            primingLooks = broker.dialect().primingLooks(statementsOn(handle));
        }
        Received got = broker.waiting().await(request.queue(), request.timeout(), wholeQueue, this::waitEnds,
                this::waitEnding, () -> wholeQueue && primingLooks > 0, () -> {
                    if (wholeQueue && primingLooks > 0) {
                        primingLooks--;
                    }
                    return lookOnce(request, priorities, skipHeld, checkedByReceive);
                });
        return got == null ? Received.NOTHING : got;
    }

    /**
     * The RECEIVE from a whole queue on PostgreSQL reads the counts in its statement whether told or not; H2, and a
     * RECEIVE of one conversation or group, run one statement more once told
     * ({@link MessageStore#readAttemptsWithReceive}).
     */
    @Override
    public void readAttemptsWithReceive() {
        messages.readAttemptsWithReceive();
    }

    /**
     * One look of a RECEIVE's wait: the batch, or null when there was nothing. Housekeeping runs after the RECEIVE,
     * so that a message found is not held back by it ({@link Housekeeping}).
     */
    private Received lookOnce(ReceiveRequest request, boolean priorities, boolean skipHeld,
            boolean checkedByReceive) {
        if (!checkedByReceive) {
            messages.requireEnabled(request.queue());
        }
        ReceiveEvent event = FlightEvents.begun(new ReceiveEvent());
        Received batch = messages.receiveOnce(request, priorities, skipHeld);
        ReceiveEvent.finish(event, request.queue(), batch.messages().size());
        broker.housekeeping().runIfDue(this, !batch.isEmpty());
        if (batch.isEmpty() && checkedByReceive) {
            messages.requireEnabled(request.queue());
        }
        return batch.isEmpty() ? null : batch;
    }

    /** SQL state of a unique or primary key violation. */
    private static final String DUPLICATE_KEY = "23505";

    @Override
    public void setPriority(UUID group, int priority) {
        settle();
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("priority must be between 0 and 255: " + priority);
        }
        try {
            String queue = st.first(sql.groupQueue, rs -> rs.getString(1), group);
            if (queue == null) {
                throw new BrokerException("set priority: conversation group " + group + " does not exist");
            }
            if (sql.upsertsPriority()) {
                st.update(sql.upsertPriority(), group, queue, priority, broker.now());
            } else {
                st.update(sql.deletePriority, group);
                try {
                    st.update(sql.insertPriority, group, queue, priority, broker.now());
                } catch (SQLException e) {
                    if (!DUPLICATE_KEY.equals(e.getSQLState())) {
                        throw e;
                    }
                    // another transaction set the group's priority, and committed while this insert waited for it
                    // (H2 keeps this transaction after a failed statement): replace its row, as a later set does
                    st.update(sql.deletePriority, group);
                    st.update(sql.insertPriority, group, queue, priority, broker.now());
                }
            }
            prioritiesSet.set();
        } catch (SQLException e) {
            throw failure("set priority of conversation group " + group, e);
        }
    }

    @Override
    public void clearPriority(UUID group) {
        settle();
        try {
            st.update(sql.deletePriority, group);
        } catch (SQLException e) {
            throw failure("clear priority of conversation group " + group, e);
        }
    }

    /** Ends this session's wait (and every later one): its readers alone, neither an arrival nor a signal. */
    @Override
    public void cancel() {
        cancelled = true;
        broker.signals().release(waitingOn);
    }

    /** Ends this session's current or next wait, once: its readers alone, neither an arrival nor a signal. */
    @Override
    public void wake() {
        woken.set(true);
        broker.signals().release(waitingOn);
    }

    /** @return whether a wait is to end now: cancelled, or woken once (consumed) */
    private boolean waitEnds() {
        return cancelled || woken.getAndSet(false);
    }

    /** @return whether {@link #waitEnds} would be true, without consuming a wake-up */
    private boolean waitEnding() {
        return cancelled || woken.get();
    }

    @Override
    public void afterCompletion(boolean committed) {
        dialogs.forgetBegun();
        UUID lost = dialogs.transactionEnded();
        if (lost != null && committed) {
            LOG.heldBeginDialogNotWritten(lost);
        }
        Map<String, TouchedQueues.Arrivals> touched = touchedQueues.drain();
        List<UUID> removed = List.of(); // most transactions ended no conversation
        for (UUID handle = removedEndpoints.poll(); handle != null; handle = removedEndpoints.poll()) {
            if (removed.isEmpty()) {
                removed = new ArrayList<>();
            }
            removed.add(handle);
        }
        java.util.Set<UUID> groups = messages.drainGroupsToCheck();
        prioritiesSet.completed(committed);
        java.time.Instant due = scheduledDue;
        scheduledDue = null;
        if (committed) {
            if (due != null) {
                broker.housekeeping().scheduled(due);
            }
            broker.signals().committed(touched);
            broker.unparkAfterCommit(groups);
            broker.committed(touched.keySet());
            if (!removed.isEmpty()) {
                broker.endedEndpoints().ended(removed); // a lock every session shares: not taken for nothing
            }
        }
    }

    // ---- helpers shared with Housekeeping

    Endpoint endpoint(UUID handle) throws SQLException {
        settle();
        return dialogs.endpoint(handle);
    }

    /** Returns the verbs' statements, for {@link ScheduledSends}. */
    Statements statements() {
        return st;
    }

    MessageStore messages() {
        return messages;
    }

    static BrokerException failure(String what, SQLException e) {
        return new BrokerException(what + " failed: " + e.getMessage(), e);
    }

    /** Work in a session of the broker's own, on a connection of its own. */
    @FunctionalInterface
    interface OwnWork<T> {
        T run(PortableSession session) throws SQLException;
    }

    /**
     * Runs {@code work} in a session on {@code c} in one transaction: committed when it returns, rolled back when it
     * throws, the session told the outcome either way ({@link #afterCompletion}: the readers it woke, the groups to
     * check after a commit). Auto-commit is off for the work and as it was afterwards; the statements the session
     * prepared are closed, as the connection may serve many such transactions.
     *
     * @param c a connection of the caller's own (the housekeeping's, a move's)
     * @return what the work returned
     * @throws SQLException from the work, the commit or the rollback
     */
    static <T> T inOwnTransaction(PortableBroker broker, Connection c, OwnWork<T> work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        PortableSession session = new PortableSession(broker, c);
        boolean committed = false;
        try {
            T result = work.run(session);
            c.commit();
            committed = true;
            return result;
        } finally {
            if (!committed) {
                c.rollback();
            }
            session.afterCompletion(committed);
            try {
                session.st.close(); // the connection outlives the session: a background move's serves every page
            } catch (SQLException e) {
                // the transaction ended already: a statement that cannot be closed goes with its connection
            }
            c.setAutoCommit(autoCommit);
        }
    }
}
