package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.ReceiveCancelledException;
import org.ssbjca.backend.Received;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * RECEIVE and GET CONVERSATION GROUP on one connection. An unfiltered RECEIVE first tries the groups the adapter's
 * priority table ranks (highest priority, then earliest request), skipping any group another transaction holds, and
 * otherwise leaves the choice, and the waiting, to SQL Server's own WAITFOR (RECEIVE ...). It does not ask for
 * prioritised groups when the reader ignores priorities, nor while the queue was lately found to have none
 * ({@link GroupPresence}): then a RECEIVE is one round trip.
 *
 * <p>A reader whose activation has a redelivery delay skips the groups it holds (ssb.conversation_hold). SQL Server's
 * own RECEIVE cannot leave a group out, so while the queue has a held group (asked at most every
 * {@link GroupPresence#RECHECK_NANOS}, at once after a hold through this JVM) such a reader picks the group itself:
 * the queue's groups that no hold covers, read WITH (NOLOCK) as the priority candidates are, each tried with the
 * RECEIVE of one group that never waits for a group lock; when none yields a message it pauses (at most
 * {@link #HELD_PAUSE_MILLIS}, never longer than its timeout) instead of waiting in WAITFOR (RECEIVE ...), which would
 * take the held group. Nothing is rolled back for a held group, so holds never count toward disabling the queue.
 *
 * <p>A wake or a stop cancels the statement that waits ({@link CancellableStatement}). Cancelled while it waited, a
 * RECEIVE returns empty; cancelled once its result had begun, it may have taken messages it did not return, and it
 * throws {@link ReceiveCancelledException} so that its transaction rolls back instead of committing them away.
 */
final class Receiver {

    /** How many prioritised groups one RECEIVE tries before it lets SQL Server choose. */
    static final int PRIORITY_CANDIDATES = 32;

    /**
     * The JDBC query timeout of one prioritised attempt. The attempt runs with LOCK_TIMEOUT 0; should a conversation
     * group lock wait not obey it (Microsoft does not say), the driver cancels the attempt after this long. The
     * RECEIVE then fails ({@link ReceiveCancelledException}) rather than skip the group: the timeout cannot tell a lock
     * wait from a RECEIVE that already took messages.
     */
    static final int PRIORITISED_QUERY_TIMEOUT_SECONDS = 1;

    private final Connection c;
    /** The longest pause of a reader that found only held groups. */
    static final int HELD_PAUSE_MILLIS = 1000;

    private final GroupPresence presence;
    private final GroupPresence holds;
    private final CancellableStatement waiting = new CancellableStatement();

    Receiver(Connection c, GroupPresence presence, GroupPresence holds) {
        this.c = c;
        this.presence = presence;
        this.holds = holds;
    }

    /**
     * Ends a WAITFOR running on another thread (the driver cancels the statement) and every later one; see
     * {@link #receive} for what the cancelled RECEIVE returns.
     */
    void cancel() {
        waiting.close();
    }

    /**
     * @param r the request
     * @param priorities whether the adapter's prioritised groups are tried first
     * @param skipHeld whether the groups a redelivery delay holds are left out
     * @return what it took; nothing when none came in time, or when a wake or stop ended the wait before the RECEIVE
     *         took any
     * @throws ReceiveCancelledException when a wake or stop reached the RECEIVE once its result had begun, or the
     *         query timeout ended a prioritised attempt: it may have taken messages that it did not return, and the
     *         transaction must roll back
     * @throws BrokerException any other failure, translated ({@link SqlServerErrors})
     */
    Received receive(ReceiveRequest r, boolean priorities, boolean skipHeld) {
        if (waiting.isClosed()) {
            return Received.NOTHING;
        }
        Tally tally = new Tally();
        List<BrokerMessage> messages = receive(r, priorities, skipHeld, tally);
        return new Received(messages, Optional.of(tally.attempts), false, tally.prioritised);
    }

    /** What the rows of one RECEIVE said besides the messages ({@link TSql#SELECT_RECEIVED}). */
    private static final class Tally {
        final Map<String, Integer> attempts = new HashMap<>();
        /** Whether a message taken belongs to a group with a priority. */
        boolean prioritised;
        /** Whether a RECEIVE of a single group ({@link #receiveFirstFree}) ran in the transaction. */
        boolean groupsTried;
    }

    private List<BrokerMessage> receive(ReceiveRequest r, boolean priorities, boolean skipHeld, Tally tally) {
        QueueName queue = SqlServerNames.queue(r.queue());
        String what = "RECEIVE from queue " + queue;
        try {
            if (r.conversationHandle() != null) {
                return receiveFiltered(queue, TSql.Filter.CONVERSATION, r, Batches.text(r.conversationHandle()),
                        tally);
            }
            if (r.conversationGroupId() != null) {
                return receiveFiltered(queue, TSql.Filter.CONVERSATION_GROUP, r,
                        Batches.text(r.conversationGroupId()), tally);
            }
            if (skipHeld && holds.mayHave(queue.quoted()) && hasHolds(queue, r.queue())) {
                return receiveUnheld(queue, r, priorities, tally);
            }
            if (priorities && presence.mayHave(queue.quoted())) {
                List<BrokerMessage> prioritised = receivePrioritised(queue, r.top(), tally);
                if (!prioritised.isEmpty()) {
                    return prioritised;
                }
            }
            if (!tally.groupsTried || r.timeout().isZero()) {
                return receive(queue, TSql.Filter.NONE, r, null, tally);
            }
            long start = System.nanoTime();
            List<BrokerMessage> any = receive(queue, TSql.Filter.NONE, r, null, tally);
            if (any.isEmpty()) {
                pauseForTheRest(r, start);
            }
            return any;
        } catch (CancellableStatement.Cancelled e) {
            if (!e.afterResultBegan()) {
                return List.of(); // woken or stopped while it waited: nothing taken
            }
            throw new ReceiveCancelledException(what + " was cancelled (the reader woken or stopped) while its result"
                    + " was read: it may have taken messages that it did not return; its transaction must roll back,"
                    + " which puts them back on the queue", e);
        } catch (SQLException e) {
            throw SqlServerErrors.translate(what, r.queue(), e);
        }
    }

    /**
     * A RECEIVE of one conversation or group waits for its group lock, as SQL Server's RECEIVE does, as long as the
     * session's SET LOCK_TIMEOUT allows; when that runs out (error 1222) the group is another transaction's and
     * nothing is received, as on the portable backends. The transaction stays usable
     * (https://learn.microsoft.com/sql/t-sql/statements/set-lock-timeout-transact-sql).
     */
    private List<BrokerMessage> receiveFiltered(QueueName queue, TSql.Filter filter, ReceiveRequest r, String key,
            Tally tally) throws SQLException {
        try {
            return receive(queue, filter, r, key, tally);
        } catch (SQLException e) {
            if (!(e instanceof CancellableStatement.Cancelled)
                    && SqlServerErrors.number(e) == SqlServerErrors.LOCK_TIMEOUT) {
                return List.of();
            }
            throw e;
        }
    }

    private List<BrokerMessage> receive(QueueName queue, TSql.Filter filter, ReceiveRequest r, String key,
            Tally tally) throws SQLException {
        boolean waitFor = !r.timeout().isZero();
        int timeout = waitFor ? Batches.waitForMillis(r.timeout()) : 0;
        return unmodifiable(Batches.query(c, TSql.receive(queue, filter, waitFor),
                waitFor ? Batches.queryTimeoutSeconds(timeout) : 0, waiting, rs -> received(rs, tally),
                Batches.params(r.top(), waitFor ? timeout : null, key)));
    }

    /**
     * Tries the prioritised groups of the queue, best first; never waits for a group another transaction holds.
     * Remembers a queue without prioritised groups ({@link GroupPresence}), so that the next RECEIVEs skip the
     * query for a while.
     */
    private List<BrokerMessage> receivePrioritised(QueueName queue, int top, Tally tally) throws SQLException {
        GroupPresence.Ask ask = presence.ask();
        List<UUID> groups = Batches.query(c, TSql.priorityCandidates(queue), 0,
                rs -> Batches.uuid(rs, "conversation_group_id"), queue.quoted(), PRIORITY_CANDIDATES);
        if (groups.isEmpty()) {
            presence.noneFound(queue.quoted(), ask);
            return List.of();
        }
        presence.found(queue.quoted());
        return receiveFirstFree(queue, groups, top, tally);
    }

    /**
     * Tries the groups in order with the RECEIVE of one group that never waits for a group lock.
     *
     * <p>An attempt that runs into its query timeout is not skipped as a locked group: mssql-jdbc's timeout runs
     * until the first packet of the answer arrives (TDSCommand.startResponse), and the batch answers only with its
     * SELECT after the RECEIVE, so the timeout may have ended the batch after its RECEIVE took messages, which stay
     * deleted in the transaction. It throws {@link ReceiveCancelledException}: the transaction must roll back.
     */
    private List<BrokerMessage> receiveFirstFree(QueueName queue, List<UUID> groups, int top, Tally tally)
            throws SQLException {
        String sql = TSql.receivePrioritisedGroup(queue);
        for (UUID group : new java.util.LinkedHashSet<>(groups)) {
            tally.groupsTried = true;
            List<BrokerMessage> batch;
            try {
                batch = Batches.query(c, sql, PRIORITISED_QUERY_TIMEOUT_SECONDS, rs -> received(rs, tally), top,
                        Batches.text(group));
            } catch (SQLTimeoutException e) {
                throw new ReceiveCancelledException("RECEIVE from group " + group + " of queue " + queue
                        + " did not answer within its query timeout of " + PRIORITISED_QUERY_TIMEOUT_SECONDS
                        + " s: it may have taken messages that it did not return; its transaction must roll back,"
                        + " which puts them back on the queue", e);
            }
            if (!batch.isEmpty()) {
                return unmodifiable(batch);
            }
        }
        return List.of();
    }

    private boolean hasHolds(QueueName queue, String queueName) throws SQLException {
        GroupPresence.Ask ask = holds.ask();
        if (Batches.query(c, TSqlLedger.HAS_HOLDS, 0, rs -> rs.getInt(1), queueName).isEmpty()) {
            holds.noneFound(queue.quoted(), ask);
            return false;
        }
        holds.found(queue.quoted());
        return true;
    }

    /** A RECEIVE that leaves out held groups: prioritised ones first, then the queue's others, best first. */
    private List<BrokerMessage> receiveUnheld(QueueName queue, ReceiveRequest r, boolean priorities, Tally tally)
            throws SQLException {
        List<UUID> groups = new java.util.ArrayList<>();
        if (priorities) {
            groups.addAll(Batches.query(c, TSql.priorityCandidates(queue, true), 0,
                    rs -> Batches.uuid(rs, "conversation_group_id"), queue.quoted(), PRIORITY_CANDIDATES));
        }
        groups.addAll(Batches.query(c, TSql.unheldCandidates(queue), 0,
                rs -> Batches.uuid(rs, "conversation_group_id"), r.queue(), PRIORITY_CANDIDATES));
        List<BrokerMessage> batch = receiveFirstFree(queue, groups, r.top(), tally);
        if (batch.isEmpty() && !r.timeout().isZero()) {
            pause(longestPause(r));
        }
        return batch;
    }

    /** @return the longest pause of an empty RECEIVE: its timeout, at most {@link #HELD_PAUSE_MILLIS} */
    private static long longestPause(ReceiveRequest r) {
        return ReceiveRequest.FOREVER.equals(r.timeout()) ? HELD_PAUSE_MILLIS
                : Math.min(HELD_PAUSE_MILLIS, r.timeout().toMillis());
    }

    /**
     * After RECEIVEs of single groups in this transaction ({@link #receiveFirstFree}), which leave their groups
     * locked to its end even when they take nothing, the WAITFOR (RECEIVE ...) that follows may come back empty
     * without waiting (a WAITFOR in a transaction that already holds conflicting locks). A reader would then
     * go round without ever waiting while such a group stays a candidate. So an empty WAITFOR that came back before
     * {@link #longestPause} is followed by a pause for the rest of it, which a wake or stop ends early: at most one
     * turn a second, the time SQL Server's own wait would have taken at least.
     *
     * @param waitStart {@link System#nanoTime()} when the WAITFOR was sent
     */
    private void pauseForTheRest(ReceiveRequest r, long waitStart) throws SQLException {
        long rest = longestPause(r) - (System.nanoTime() - waitStart) / 1_000_000;
        if (rest > 0) {
            pause(rest);
        }
    }

    /** WAITFOR DELAY of at most {@link #HELD_PAUSE_MILLIS}; a wake or stop ends it early. It takes nothing. */
    private void pause(long millis) throws SQLException {
        try {
            Batches.query(c, TSql.PAUSE, Batches.queryTimeoutSeconds((int) millis), waiting, rs -> null,
                    Batches.delay(millis));
        } catch (CancellableStatement.Cancelled woken) {
            // woken or stopped: the pause ends early; it takes nothing
        }
    }

    /**
     * GET CONVERSATION GROUP takes SQL Server's next group. Unlike RECEIVE it cannot be pointed at a group, and no
     * statement locks a chosen group without receiving or changing something, so the adapter's priorities do not
     * apply here: GET CONVERSATION GROUP follows SQL Server's own broker priorities.
     *
     * <p>A wake or stop ends it empty even once its result had begun: it takes no message, and the group lock it may
     * have taken ends with the transaction.
     */
    Optional<UUID> getConversationGroup(String queueName, Duration timeout) {
        if (waiting.isClosed()) {
            return Optional.empty();
        }
        QueueName queue = SqlServerNames.queue(queueName);
        boolean waitFor = !timeout.isZero();
        int millis = waitFor ? Batches.waitForMillis(timeout) : 0;
        try {
            List<UUID> group = Batches.query(c, TSql.getConversationGroup(queue, waitFor),
                    waitFor ? Batches.queryTimeoutSeconds(millis) : 0, waiting,
                    rs -> Batches.uuid(rs, "conversation_group_id"),
                    Batches.params(waitFor ? millis : null));
            return group.isEmpty() ? Optional.empty() : Optional.ofNullable(group.get(0));
        } catch (CancellableStatement.Cancelled woken) {
            return Optional.empty();
        } catch (SQLException e) {
            throw SqlServerErrors.translate("GET CONVERSATION GROUP from queue " + queue, queueName, e);
        }
    }

    /**
     * Ends the WAITFOR running on another thread now: the driver cancels the statement, and the RECEIVE or GET
     * CONVERSATION GROUP returns empty (a RECEIVE whose result had begun throws, see {@link #receive}); later ones
     * wait as usual. Without a WAITFOR running it does nothing.
     */
    void wake() {
        waiting.cancel();
    }

    /**
     * A row of {@link TSql#SELECT_RECEIVED}: the message with its trace context, and its recorded failed deliveries
     * and whether its group has a priority noted.
     */
    private static BrokerMessage received(ResultSet rs, Tally tally) throws SQLException {
        BrokerMessage m = message(rs);
        Object attempts = rs.getObject("recorded_attempts");
        if (attempts != null) {
            tally.attempts.put(DeliveryLedger.key(m), ((Number) attempts).intValue());
        }
        tally.prioritised |= rs.getBoolean("has_priority");
        return m;
    }

    static BrokerMessage message(ResultSet rs) throws SQLException {
        return BrokerMessage.builder()
                .priority(rs.getInt("priority"))
                .queuingOrder(rs.getLong("queuing_order"))
                .conversationGroupId(Batches.uuid(rs, "conversation_group_id"))
                .conversationHandle(Batches.uuid(rs, "conversation_handle"))
                .messageSequenceNumber(rs.getLong("message_sequence_number"))
                .serviceName(rs.getString("service_name"))
                .serviceContractName(rs.getString("service_contract_name"))
                .messageTypeName(rs.getString("message_type_name"))
                .body(rs.getBytes("message_body"))
                .enqueueTime(Jdbc.instant(rs, "message_enqueue_time"))
                .conversationId(Batches.uuid(rs, "conversation_id"))
                .traceContext(rs.getString("trace_context"))
                .build();
    }

    private static List<BrokerMessage> unmodifiable(List<BrokerMessage> messages) {
        return messages.isEmpty() ? List.of() : Collections.unmodifiableList(messages);
    }
}
