package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.support.AdapterLog;

/**
 * Puts the messages that waited in {@code ssb.transmission_queue} for a disabled queue onto it once an operator enabled
 * it again with the README's {@code UPDATE} ("Disabling a queue"), as SQL Server retries its transmission queue. Run
 * by the housekeeping's repair pass for every enabled queue ({@link Housekeeping}, every
 * {@value Housekeeping#REPAIR_MILLIS} ms and at the first look after a start), and for its own queue by a reader that
 * finds it enabled as it connects again after a failure, a disabled queue's among them ({@link PortableAdmin}), so
 * that the delivery resumes within the readers' backoff. The repair pass runs after a RECEIVE's look, on that reader's
 * thread: it moves at most {@value #PAGE} messages per queue and waits at most {@value #LOCK_WAIT_MILLIS} ms for a
 * lock, and a failure is logged, never the RECEIVE's ({@link #moveSomeOfAll}). Never on a delivery's path. Each row's
 * target endpoint is locked as its message moves: an END or MOVE CONVERSATION of that side is serialized with the
 * move.
 *
 * <p>A queue's messages move in one transaction that first locks the queue's row ({@link PortableSql#lockEnabledQueue},
 * never waiting): one mover at a time of any node, the others pass the queue over, so the messages go onto it in the
 * order they were sent ({@code transmission_order}), which keeps each conversation's order. Each row is deleted, and
 * only when that deleted it (an END CONVERSATION that committed meanwhile took it) put on the queue
 * ({@link MessageStore#enqueue}, which gives a parked group its turn and, after the commit, wakes the readers as a SEND
 * does), in the same transaction: a failure rolls back both and loses nothing, a crash before the commit leaves the
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
 * move puts its message on the queue at once, ahead of the older ones still waiting here (SQL Server queues it behind
 * them).
 */
final class Transmissions {

    private static final AdapterLog LOG = AdapterLog.of(Transmissions.class);
    /** How many rows one read of a queue's transmissions takes, and at most one repair pass moves per queue. */
    static final int PAGE = 200;
    /** How long the repair pass's and a reader's move wait at most for a lock. */
    static final int LOCK_WAIT_MILLIS = 200;

    private final PortableBroker broker;

    Transmissions(PortableBroker broker) {
        this.broker = broker;
    }

    /** What one move did: messages put on the queue, rows dropped. */
    record Moved(int moved, int dropped) {
    }

    /**
     * The housekeeping's repair pass, which runs after a RECEIVE's look on that reader's thread
     * ({@link Housekeeping}): moves at most {@value #PAGE} transmissions of each enabled queue that has some, each
     * queue in a transaction of its own that waits at most {@value #LOCK_WAIT_MILLIS} ms for a lock (a row an
     * uncommitted END CONVERSATION deletes, the caller's own transaction's among them). A queue's failure is logged
     * ({@code SSBJCA0122}), never thrown into the RECEIVE; the next pass tries again. A larger backlog moves at the
     * pace of the passes, unless a reader of the queue moves it as it connects again ({@link #moveIfDue}).
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
            try {
                moveInOwnTransaction(own, queue, PAGE);
            } catch (RuntimeException e) {
                LOG.transmissionsNotMoved(e, queue, e.getMessage());
            }
        }
    }

    /**
     * A reader found its queue enabled: when the queue has messages in the transmission queue (one probe on the
     * reader's connection), moves them now on a connection of its own. A failure is logged ({@code SSBJCA0122}), not
     * thrown: the reader goes on with the messages already on the queue, and the repair pass tries again.
     *
     * @param probeOn the reader's connection
     * @param queue its queue
     */
    void moveIfDue(Connection probeOn, String queue) {
        try {
            if (!Jdbc.exists(probeOn, broker.sql().transmissionsDueTo, queue)) {
                return;
            }
            try (Connection own = broker.source().open()) {
                moveInOwnTransaction(own, queue, Integer.MAX_VALUE);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.transmissionsNotMoved(e, queue, e.getMessage());
        }
    }

    /**
     * Moves at most {@code limit} of one queue's transmissions in a transaction of their own on {@code own}, its lock
     * waits bounded, committed, then logged.
     */
    private void moveInOwnTransaction(Connection own, String queue, int limit) {
        try {
            Moved moved = PortableSession.inOwnTransaction(broker, own, session -> {
                try (java.sql.Statement st = own.createStatement()) {
                    st.execute(broker.sql().moveLockWait);
                }
                return move(broker.sql(), session, queue, limit);
            });
            if (moved.moved() > 0 || moved.dropped() > 0) {
                LOG.transmissionsMoved(moved.moved(), queue, moved.dropped());
            }
        } catch (SQLException e) {
            throw PortableSession.failure("moving the messages of the transmission queue onto queue " + queue, e);
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
     * @param limit at most how many rows it takes (whole pages of {@value #PAGE})
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
        do {
            rows = Jdbc.list(c, sql.pendingTransmissions, rs -> new Row(rs.getLong("transmission_order"),
                    Jdbc.uuid(rs, "to_handle"), rs.getLong("message_sequence_number"),
                    rs.getString("message_type_name"), rs.getBytes("message_body"),
                    Jdbc.uuid(rs, "conversation_group_id"), rs.getString("state")), queue, after, PAGE);
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
                    session.messages().enqueue(queue, (UUID) target[0], r.handle(), r.sequence(), r.type(), r.body());
                    moved++;
                }
            }
        } while (rows.size() == PAGE && moved + dropped < limit);
        return new Moved(moved, dropped);
    }

    /** One row of the transmission queue, with its target endpoint's group and state (null: no such endpoint). */
    private record Row(long order, UUID handle, long sequence, String type, byte[] body, UUID group, String state) {
    }
}
