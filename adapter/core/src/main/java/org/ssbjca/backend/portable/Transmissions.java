package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.support.AdapterLog;

/**
 * Puts the messages that waited in {@code ssb.transmission_queue} for a disabled queue onto it once an operator enabled
 * it again with the {@code UPDATE} of docs/guide/backends.md ("Disabling a queue"), as SQL Server retries its
 * transmission queue. Run by the housekeeping's repair pass for every enabled queue ({@link Housekeeping}, every
 * {@value Housekeeping#REPAIR_MILLIS} ms and at the first look after a start), and for its own queue by a reader that
 * finds it enabled as it connects again after a failure, a disabled queue's among them ({@link PortableAdmin}), so that
 * the delivery resumes within the readers' backoff. That reader holds its activation's reconnect gate (the other
 * readers of its bean that reconnect wait for it), and the repair pass runs after a RECEIVE's look, on that reader's
 * thread and inside its delivery transaction: each moves at most one page of {@value #PAGE} messages per queue, waiting
 * at most {@value #LOCK_WAIT_MILLIS} ms for a lock, and a failure is logged, never thrown ({@link #moveSomeOfAll},
 * {@link #moveIfDue}). A larger backlog is offered to a {@link BacklogMove} on a thread of the broker's {@link
 * BackgroundRunner} ({@link BackgroundRunner#offer}: in WildFly a work of the container's long-running pool, taken if
 * the pool has a thread or room in its queue now, else refused at once and offered again by the next repair pass; the
 * reader never waits for a thread), one per queue and broker at a time, which moves the rest a page at a time, each
 * page committed before the next is read, each lock waited for at most {@value #BACKGROUND_LOCK_WAIT_MILLIS} ms, while
 * the readers deliver the pages already moved. Never on a delivery's path. Each row's target endpoint is locked as its
 * message moves: an END or MOVE CONVERSATION of that side is serialized with the move.
 *
 * <p>Each page of a queue moves in one transaction that first locks the queue's row
 * ({@link PortableSql#lockEnabledQueue}, never waiting): one mover at a time of any node, the others pass the queue
 * over (a background move tries again after {@value #LOCK_WAIT_MILLIS} ms), and each page is the oldest rows left, so
 * the messages go onto the queue in the order they were sent ({@code transmission_order}), which keeps each
 * conversation's order. Each row is deleted, and only when that deleted it (an END CONVERSATION that committed
 * meanwhile took it) put on the queue ({@link MessageStore#enqueue}, which gives a parked group its turn and, after the
 * commit, wakes the readers as a SEND does), in the same transaction: a failure rolls back that page's deletes and
 * arrivals together and loses nothing, the pages before it stay moved, and a crash before a commit leaves that page's
 * rows to a later move and duplicates nothing.
 *
 * <p>A row whose target endpoint no longer exists, or whose target side has ended the conversation (state
 * {@code DO}), is dropped, not moved nor skipped: it can never be received (an END CONVERSATION deletes the messages
 * of its side already on the queue, and the rows to an endpoint it removes, {@link PortableSql#deleteTransmissionsTo}),
 * and kept it would be read again by every move for ever and counted in {@code TransmissionQueueDepth}. A message for
 * a side whose peer ended the conversation, or that an error ended ({@code DI}, {@code ER}: the EndDialog or Error
 * message itself), is moved: that side still receives it. A queue that is still disabled, or no longer exists, keeps
 * its rows.
 *
 * <p>Not closed: a SEND on the conversation that commits after the {@code UPDATE} enabled the queue and before the
 * move of that conversation's waiting messages puts its message on the queue at once, ahead of the older ones still
 * waiting here (SQL Server queues it behind them).
 */
final class Transmissions {

    /** The log of every move of transmissions (a reader's, the repair pass's, a {@link BacklogMove}). */
    static final AdapterLog LOG = AdapterLog.of(Transmissions.class);
    /** How many rows one read of a queue's transmissions takes, and at most one transaction of a move moves. */
    static final int PAGE = 200;
    /**
     * How long a page of a reader's move or of the repair pass waits at most for a lock: both run on a reader's thread,
     * and a background move, which holds no reader, waits again this long when another mover holds the queue.
     */
    static final int LOCK_WAIT_MILLIS = 200;
    /**
     * How long a page of a background move waits at most for each lock: it holds no reader, and a delivery that
     * replied on a conversation holds that endpoint's row until it commits, longer than {@link #LOCK_WAIT_MILLIS}.
     */
    static final int BACKGROUND_LOCK_WAIT_MILLIS = 5_000;

    private final PortableBroker broker;
    private final BackgroundRunner runner;
    /** The background move of each queue that has one in this broker (started, or waiting for its thread). */
    private final Map<String, BacklogMove> moves = new ConcurrentHashMap<>();
    /** Whether the broker closed (guarded by this): no move starts after. */
    private boolean closed;
    /** How long a page of a background move waits at most for a lock; shorter in tests. */
    private volatile int backgroundLockWaitMillis = BACKGROUND_LOCK_WAIT_MILLIS;

    /**
     * @param broker the broker
     * @param runner what runs the moves of larger backlogs
     */
    Transmissions(PortableBroker broker, BackgroundRunner runner) {
        this.broker = broker;
        this.runner = runner;
    }

    /** What one move did: messages put on the queue, rows dropped. */
    record Moved(int moved, int dropped) {
    }

    /**
     * The housekeeping's repair pass, which runs after a RECEIVE's look on that reader's thread
     * ({@link Housekeeping}): moves at most {@value #PAGE} transmissions of each enabled queue that has some and no
     * background move of this broker, each queue in a transaction of its own that waits at most
     * {@value #LOCK_WAIT_MILLIS} ms for a lock (a row an uncommitted END CONVERSATION deletes, the caller's own
     * transaction's among them), and hands what is left to a background move ({@link BacklogMove}). A queue's failure
     * is logged ({@code SSBJCA0122}), never thrown into the RECEIVE; the next pass tries again.
     *
     * @param own a connection of the pass's own, auto-commit on (and so left)
     */
    void moveSomeOfAll(Connection own) {
        List<String> queues;
        try {
            queues = Jdbc.list(own, broker.sql().transmissionsDue, rs -> rs.getString(1));
        } catch (SQLException | RuntimeException e) {
            LOG.transmissionsNotMoved(e, "(every queue)", e.getMessage());
            return;
        }
        for (String queue : queues) {
            if (moves.containsKey(queue)) {
                continue; // its background move takes it
            }
            try {
                logged(queue, movePage(own, queue));
                moveTheRestIfAny(own, queue);
            } catch (SQLException | RuntimeException e) {
                LOG.transmissionsNotMoved(e, queue, e.getMessage());
            }
        }
    }

    /**
     * A reader found its queue enabled: when the queue has messages in the transmission queue (one probe on the
     * reader's connection) and no background move of this broker takes them, moves a page of them now on a
     * connection of its own, and hands what is left to a background move ({@link BacklogMove}), so that the reader,
     * which holds its activation's reconnect gate, waits for one page at most. A failure is logged
     * ({@code SSBJCA0122}), not thrown: the reader goes on with the messages already on the queue, and the repair
     * pass tries again.
     *
     * @param probeOn the reader's connection
     * @param queue its queue
     */
    void moveIfDue(Connection probeOn, String queue) {
        try {
            if (moves.containsKey(queue) || !Jdbc.exists(probeOn, broker.sql().transmissionsDueTo, queue)) {
                return;
            }
            try (Connection own = broker.source().open()) {
                logged(queue, movePage(own, queue));
            }
            moveTheRestIfAny(probeOn, queue);
        } catch (SQLException | RuntimeException e) {
            LOG.transmissionsNotMoved(e, queue, e.getMessage());
        }
    }

    /**
     * Moves at most a page ({@value #PAGE}) of one queue's transmissions in a transaction of their own on
     * {@code own}, each lock wait at most {@value #LOCK_WAIT_MILLIS} ms (a reader's and the repair pass's page),
     * committed; nothing when another transaction moves the queue's now.
     *
     * @param own a connection of the mover's own
     * @param queue the queue
     * @return what it moved and dropped
     * @throws SQLException if the move failed (rolled back)
     */
    Moved movePage(Connection own, String queue) throws SQLException {
        return movePage(own, queue, LOCK_WAIT_MILLIS);
    }

    /**
     * As {@link #movePage(Connection, String)}, for a page of a background move: each lock wait at most
     * {@link #backgroundLockWaitMillis()}.
     */
    Moved movePageInBackground(Connection own, String queue) throws SQLException {
        return movePage(own, queue, backgroundLockWaitMillis);
    }

    private Moved movePage(Connection own, String queue, int lockWaitMillis) throws SQLException {
        return PortableSession.inOwnTransaction(broker, own, session -> {
            try (java.sql.Statement st = own.createStatement()) {
                st.execute(broker.sql().moveLockWait(lockWaitMillis));
            }
            return move(broker.sql(), session, queue, PAGE);
        });
    }

    /** Returns how long a page of a background move waits at most for each lock. */
    int backgroundLockWaitMillis() {
        return backgroundLockWaitMillis;
    }

    /** @param millis how long a page of a background move waits at most for each lock from now on (tests) */
    void backgroundLockWaitMillis(int millis) {
        this.backgroundLockWaitMillis = millis;
    }

    /** Logs what a move did ({@code SSBJCA0121}) when it did something. */
    private static Moved logged(String queue, Moved moved) {
        if (moved.moved() > 0 || moved.dropped() > 0) {
            LOG.transmissionsMoved(moved.moved(), queue, moved.dropped());
        }
        return moved;
    }

    /** Starts a background move of the queue when it still has transmissions and is enabled (one probe). */
    private void moveTheRestIfAny(Connection probeOn, String queue) throws SQLException {
        if (Jdbc.exists(probeOn, broker.sql().transmissionsDueTo, queue)) {
            startMove(queue);
        }
    }

    /**
     * Hands a queue's backlog to a background move, unless one of this broker takes it already or the broker closed.
     * Its caller is a reader's thread, so the move is only offered ({@link BackgroundRunner#offer}): in WildFly the
     * work manager takes it if its long-running pool has a thread or room in its queue now, and refuses it at once
     * otherwise, never holding the caller. A move refused, or that the runner failed to take (it threw, thrown on),
     * is stopped and forgotten: it never runs, and the next repair pass moves a page and offers another. The lock
     * guards the registration only, not the hand-over: {@link #close} stops whatever is registered, and a move it
     * stopped before it began returns at once when it gets a thread ({@link org.ssbjca.support.TaskEnd#begin}).
     */
    private void startMove(String queue) {
        BacklogMove move = new BacklogMove(this, broker, queue);
        synchronized (this) {
            if (closed || moves.putIfAbsent(queue, move) != null) {
                return;
            }
        }
        Runnable refused = () -> {
            move.stop();
            ended(queue, move);
        };
        try {
            runner.offer("ssb-jca move of ssb.transmission_queue onto " + queue + " of " + broker.config(), move,
                    refused);
        } catch (Throwable e) {
            refused.run();
            throw e;
        }
    }

    /**
     * @param queue a queue
     * @param move its background move, which ended (or will never run)
     */
    void ended(String queue, BacklogMove move) {
        moves.remove(queue, move);
    }

    /**
     * Stops the background moves, each after the page it moves now (or the pause it sleeps before its next try), and
     * waits for them at most {@code millis}; one still running then is logged ({@code SSBJCA0117}) and left to end
     * by itself. One that never got a thread is not waited for.
     *
     * @param millis how long to wait at most
     */
    void close(long millis) {
        List<BacklogMove> stopping;
        synchronized (this) {
            closed = true;
            stopping = List.copyOf(moves.values());
        }
        stopping.forEach(BacklogMove::stop);
        for (BacklogMove late : org.ssbjca.support.TaskEnd.notEndedWithin(millis, stopping, BacklogMove::end)) {
            LOG.backgroundTaskDidNotStop("move of ssb.transmission_queue onto queue " + late.queue(), broker.config(),
                    millis);
        }
    }

    /**
     * Moves a queue's transmissions in the session's transaction, which the caller commits (then
     * {@link PortableSession#afterCompletion} wakes the readers). Nothing when the queue is disabled, or another
     * transaction moves its transmissions now.
     *
     * @param sql the broker's statements
     * @param session the session
     * @param queue the queue
     * @param limit at most how many rows it moves or drops, read {@value #PAGE} at a time
     * @return what it moved and dropped
     * @throws SQLException if the database refuses
     */
    static Moved move(PortableSql sql, PortableSession session, String queue, int limit) throws SQLException {
        Connection c = session.connection();
        if (!Jdbc.exists(c, sql.lockEnabledQueue, queue)) {
            return new Moved(0, 0);
        }
        int moved = 0;
        int dropped = 0;
        long after = Long.MIN_VALUE;
        List<Row> rows;
        int wanted;
        do {
            // rows an END CONVERSATION took meanwhile leave the read short of the limit: the next read takes the rest
            wanted = Math.min(PAGE, limit - moved - dropped);
            rows = Jdbc.list(c, sql.pendingTransmissions, rs -> new Row(rs.getLong("transmission_order"),
                    Jdbc.uuid(rs, "to_handle"), rs.getLong("message_sequence_number"),
                    rs.getString("message_type_name"), rs.getBytes("message_body"),
                    Jdbc.uuid(rs, "conversation_group_id"), rs.getString("state")), queue, after, wanted);
            for (Row r : rows) {
                after = r.order();
                if (Jdbc.update(c, sql.deleteTransmission, r.order()) == 0) {
                    continue; // an END CONVERSATION removed it meanwhile
                }
                // the target as committed now, locked until this move commits: an END or MOVE CONVERSATION of that
                // side that ran since the page was read is seen, and one that comes later sees the moved message
                Object[] target = r.group() == null ? null : Jdbc.first(c, sql.lockTargetEndpoint,
                        rs -> new Object[] {Jdbc.uuid(rs, "conversation_group_id"), rs.getString("state")}, r.handle());
                if (target == null || Endpoint.DISCONNECTED_OUTBOUND.equals(((String) target[1]).trim())) {
                    dropped++;
                } else {
                    session.messages().enqueue(queue, (UUID) target[0], r.handle(), r.sequence(), r.type(), r.body(),
                            null);
                    moved++;
                }
            }
        } while (rows.size() == wanted && moved + dropped < limit);
        return new Moved(moved, dropped);
    }

    /** One row of the transmission queue, with its target endpoint's group and state (null: no such endpoint). */
    private record Row(long order, UUID handle, long sequence, String type, byte[] body, UUID group, String state) {
    }
}
