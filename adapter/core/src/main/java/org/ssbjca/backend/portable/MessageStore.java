package org.ssbjca.backend.portable;

import org.ssbjca.support.Tracing;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.Received;
import org.ssbjca.backend.Statements;
import org.ssbjca.backend.TouchedQueues;

/** Puts messages on queues and takes them off, one conversation group at a time. */
final class MessageStore {

    /** How many candidate groups one look at the queue considers before it pages on. */
    private static final int CANDIDATE_PAGE = 32;
    /**
     * The whole-queue RECEIVE's first column after the message's ({@link PortableSql#receiveNext}): whether it parked
     * the group; then whether it took the last messages waiting, then the failed deliveries recorded.
     */
    private static final int PARKED_COLUMN = PortableSql.MESSAGE_COLUMN_COUNT + 1;
    /** The sequence number of messages the broker raises itself, outside the conversation's sequence. */
    static final long BROKER_SEQUENCE = -1;

    private final PortableBroker broker;
    private final PortableSql sql;
    private final Connection c;
    private final Statements st;
    private final TouchedQueues touchedQueues;
    /** Groups whose turn is checked once this transaction committed ({@link PostgresSql#unparkGroups}). */
    private final java.util.Set<UUID> groupsToCheck = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** See {@link #readAttemptsWithReceive}. */
    private boolean readsAttempts;

    MessageStore(PortableBroker broker, Statements statements, TouchedQueues touchedQueues) {
        this.broker = broker;
        this.sql = broker.sql();
        this.st = statements;
        this.c = statements.connection();
        this.touchedQueues = touchedQueues;
    }

    /** Sends one message from one side to the other, with the sender's next sequence number. */
    void send(Endpoint from, Endpoint to, String messageType, byte[] body) throws SQLException {
        QueueState target = queueOf(to.service);
        if (target == null) {
            throw new BrokerException("service '" + to.service + "' of conversation " + to.handle
                    + " no longer exists");
        }
        deliver(from.handle, to, from.sendSequence, messageType, body, target.queue(), target.receives(),
                Tracing.get().currentContext());
    }

    /**
     * A SEND: puts the message on the target's queue (in the transmission queue while that queue does not receive)
     * and gives the sender its next sequence number, state CONVERSING.
     *
     * @param queue the target service's queue
     * @param receives whether that queue receives
     */
    void send(Endpoint from, Endpoint to, String messageType, byte[] body, String queue, boolean receives)
            throws SQLException {
        deliver(from.handle, to, from.sendSequence, messageType, body, queue, receives,
                Tracing.get().currentContext());
        st.update(sql.updateSendSequence, from.sendSequence + 1, Endpoint.CONVERSING, from.handle);
    }

    /**
     * Puts a message on the queue when it receives, else in the transmission queue (which keeps no trace context).
     *
     * @param traceContext the sender's trace context ({@link Tracing#currentContext}), or null
     */
    private void deliver(UUID from, Endpoint to, long sequence, String messageType, byte[] body, String queue,
            boolean receives, String traceContext) throws SQLException {
        if (receives) {
            enqueue(queue, to.groupId, to.handle, sequence, messageType, body, traceContext);
        } else {
            st.update(sql.insertTransmission, from, to.handle, queue, sequence, messageType, body, broker.now(),
                    "The queue '" + queue + "' is disabled.");
        }
    }

    /**
     * Puts a message on a queue now (the caller checked that the queue is enabled).
     *
     * @param traceContext the trace context it carries, or null
     */
    void enqueue(String queue, UUID group, UUID handle, long sequence, String messageType, byte[] body,
            String traceContext) throws SQLException {
        int unparked = st.update(sql.insertMessage(), queue, group, handle, sequence, messageType, body,
                broker.now(), Jdbc.orNull(traceContext, java.sql.Types.VARCHAR));
        enqueued(queue, group, messageType, unparked);
    }

    private void enqueued(String queue, UUID group, String messageType, int unparked) {
        touchedQueues.add(queue, messageType, group);
        if (sql.parksDrainedGroups() && unparked == 0) {
            // not parked as this statement saw it; a RECEIVE holding the group may park it before seeing this
            // message: checked again after the commit
            groupsToCheck.add(group);
        }
    }

    /**
     * A SEND put a message on a queue and advanced the sender in one statement ({@link PortableSql#sendChecked}).
     *
     * @param unparked whether it gave the group its turn
     */
    void sentInOne(String queue, UUID group, String messageType, boolean unparked) {
        enqueued(queue, group, messageType, unparked ? 1 : 0);
    }

    /** A message was put on a queue in a group the same statement created, with its turn. */
    void enqueuedInNewGroup(String queue, String messageType) {
        touchedQueues.addToNewGroup(queue, messageType);
    }

    /** Puts a message the broker itself raises (DialogTimer, lifetime Error) on an endpoint's own queue. */
    void enqueueToSelf(Endpoint e, String messageType, byte[] body) throws SQLException {
        QueueState own = queueOf(e.service);
        if (own == null) {
            return;
        }
        deliver(e.handle, e, BROKER_SEQUENCE, messageType, body, own.queue(), own.receives(), null);
    }

    /** A service's queue and whether it receives (false when the queue row is gone too). */
    private record QueueState(String queue, boolean receives) {
    }

    /** @return the service's queue and its state in one round trip, or null when there is no such service */
    private QueueState queueOf(String service) throws SQLException {
        return st.first(sql.serviceQueueState, rs -> new QueueState(rs.getString(1),
                Boolean.TRUE.equals(rs.getObject(2, Boolean.class))), service);
    }

    void requireEnabled(String queue) {
        try {
            Boolean enabled = st.first(sql.queueEnabled, rs -> rs.getBoolean(1), queue);
            if (enabled == null) {
                throw new BrokerException("queue '" + queue + "' does not exist");
            }
            if (!enabled) {
                throw PortableSql.queueDisabled(queue);
            }
        } catch (SQLException e) {
            throw PortableSession.failure("reading the status of queue '" + queue + "'", e);
        }
    }

    /**
     * The time a RECEIVE compares the holds with when it does not skip held groups: no hold lasts that long, so no
     * group counts as held.
     */
    private static final Instant NO_HOLDS = Instant.parse("9999-12-31T00:00:00Z");

    /**
     * One look at the queue: the messages of one group (locked), or an empty list. Never waits for a lock.
     *
     * @param r the RECEIVE
     * @param priorities whether an unfiltered RECEIVE tries prioritised groups first (false: a reader told to ignore
     *     them takes the groups in round-robin order)
     * @param skipHeld whether an unfiltered RECEIVE skips groups held by a redelivery delay
     * @return what it took: {@link Received#tookLast} known only from {@link PortableSql#receiveNext};
     *     {@link Received#mayHaveDrainedPrioritised} true for a RECEIVE of one conversation or group, else whether
     *     its group may have been one of the prioritised
     */
    Received receiveOnce(ReceiveRequest r, boolean priorities, boolean skipHeld) {
        try {
            if (r.conversationHandle() != null) {
                UUID group = st.first(sql.endpointGroup, rs -> Jdbc.uuid(rs, "conversation_group_id"),
                        r.conversationHandle());
                if (group == null || !st.exists(sql.tryLockGroup, group)) {
                    return Received.NOTHING;
                }
                heldUntilCommit(group);
                return take(group, sql.messagesOfConversation, r.conversationHandle(), r.top(), true);
            }
            if (r.conversationGroupId() != null) {
                if (!st.exists(sql.tryLockGroup, r.conversationGroupId())) {
                    return Received.NOTHING;
                }
                heldUntilCommit(r.conversationGroupId());
                return take(r.conversationGroupId(), sql.messagesOfGroup, r.conversationGroupId(), r.top(), true);
            }
            Instant heldAt = skipHeld ? broker.now() : NO_HOLDS;
            if (checksEnabled(r)) {
                return takeNext(r.queue(), r.top(), heldAt, priorities && mayHavePriorities(r.queue()));
            }
            List<UUID> prioritised = prioritisedCandidates(r.queue(), heldAt, priorities);
            for (UUID group : candidates(r.queue(), heldAt, prioritised)) {
                // a full page of prioritised groups may have left this one's priority out
                boolean mayHaveDrained = prioritised.contains(group) || prioritised.size() >= CANDIDATE_PAGE;
                if (st.exists(sql.tryLockGroup, group)) {
                    Received batch = take(group, sql.messagesOfGroup, group, r.top(), mayHaveDrained);
                    if (!batch.isEmpty()) {
                        return batch;
                    }
                }
            }
            return Received.NOTHING;
        } catch (SQLException e) {
            throw PortableSession.failure("RECEIVE from queue '" + r.queue() + "'", e);
        }
    }

    /**
     * Returns whether {@link #receiveOnce} checks that the queue is enabled itself, taking nothing from a disabled
     * queue (then the caller checks only when nothing was taken, to say why).
     *
     * @param r a RECEIVE
     */
    boolean checksEnabled(ReceiveRequest r) {
        return sql.receivesInOneStatement() && wholeQueue(r);
    }

    /**
     * Returns whether a RECEIVE takes whichever group of its queue comes next (no conversation or group named).
     *
     * @param r a RECEIVE
     */
    static boolean wholeQueue(ReceiveRequest r) {
        return r.conversationHandle() == null && r.conversationGroupId() == null;
    }

    /**
     * How many times a RECEIVE from a whole queue runs its statement again when the messages it picked had all been
     * taken by transactions that committed after its snapshot ({@link PortableSql#receiveNext}): each time takes
     * another commit in the meantime, so more than a few in a row mean a queue busy enough for the reader's next
     * look to find work anyway.
     */
    private static final int RECEIVE_AGAIN = 5;

    /**
     * Whether the queue may have prioritised groups, so that its RECEIVE must try them first: believed for
     * {@link GroupPresence#RECHECK_NANOS} after a probe ({@link PortableSql#anyPriority}) found some or none; a priority
     * set through this JVM ends a "none" at once. The probe is a hint, run ahead of the transaction the RECEIVE then
     * begins ({@link Statements#existsAhead}).
     */
    private boolean mayHavePriorities(String queue) throws SQLException {
        GroupPresence presence = broker.priorities();
        if (presence.recentlyFound(queue)) {
            return true;
        }
        if (!presence.mayHave(queue)) {
            return false;
        }
        GroupPresence.Ask ask = presence.ask();
        if (st.existsAhead(sql.anyPriority, queue)) {
            presence.found(queue);
            return true;
        }
        presence.noneFound(queue, ask);
        return false;
    }

    /**
     * RECEIVE from a whole queue in one statement ({@link PortableSql#receiveNext}).
     *
     * @param heldAt the time holds are compared with, or {@link #NO_HOLDS}: no group is left out as held (the
     *     statement without the holds' check)
     * @param prioritised whether the statement tries prioritised groups first
     */
    @SuppressWarnings("ReferenceEquality") // NO_HOLDS is a sentinel: the very instance is meant
    private Received takeNext(String queue, int top, Instant heldAt, boolean prioritised)
            throws SQLException {
        boolean[] parked = {false};
        boolean[] last = {false};
        Map<String, Integer> attempts = new HashMap<>();
        boolean holds = heldAt != NO_HOLDS;
        String statement = sql.receiveNext(top, prioritised, holds);
        List<Object> parameters = new ArrayList<>(5);
        for (int pick = prioritised ? 2 : 1; pick > 0; pick--) {
            parameters.add(queue);
            if (holds) {
                parameters.add(heldAt);
            }
        }
        parameters.add(queue);
        parameters.add(queue);
        List<BrokerMessage> batch;
        for (int run = 1; ; run++) {
            batch = st.listBetween(sql.keptPlanning(), statement, sql.keptPlanningEnded(), rs -> {
                BrokerMessage m = readMessage(rs);
                if (m == null) {
                    return null; // picked, but deleted meanwhile: none taken
                }
                parked[0] |= rs.getBoolean(PARKED_COLUMN);
                last[0] |= rs.getBoolean(PARKED_COLUMN + 1);
                int failed = rs.getInt(PARKED_COLUMN + 2);
                if (!rs.wasNull()) {
                    attempts.put(DeliveryLedger.key(m), failed);
                }
                return m;
            }, parameters.toArray());
            boolean noneLeft = batch.size() == 1 && batch.get(0) == null;
            if (!noneLeft) {
                break;
            }
            if (run == RECEIVE_AGAIN) {
                return Received.NOTHING;
            }
        }
        if (batch.isEmpty()) {
            return Received.NOTHING;
        }
        if (parked[0]) {
            // a SEND that committed while this RECEIVE held the group did not see it parked: checked after the commit
            groupsToCheck.add(batch.get(0).conversationGroupId());
        }
        return new Received(Collections.unmodifiableList(batch), Optional.of(attempts), last[0],
                prioritised && parked[0]);
    }

    /**
     * Makes every later {@link #receiveOnce} read the failed deliveries recorded for the messages it takes
     * ({@link Received#recordedAttempts}): the statement of a RECEIVE from a whole queue on PostgreSQL reads them
     * always; the others then run one statement more after the take ({@link PortableSql#attemptsOfMessages}).
     */
    void readAttemptsWithReceive() {
        readsAttempts = true;
    }

    /** GET CONVERSATION GROUP: locks the next group that has messages, or returns null. */
    UUID lockNextGroup(String queue) {
        try {
            for (UUID group : candidates(queue, NO_HOLDS, true)) {
                if (st.exists(sql.tryLockGroup, group)) {
                    st.update(sql.nextTurn, group);
                    return group;
                }
            }
            return null;
        } catch (SQLException e) {
            throw PortableSession.failure("GET CONVERSATION GROUP from queue '" + queue + "'", e);
        }
    }

    /**
     * Groups that have messages, best first: prioritised groups (highest priority, then earliest request), then the
     * others in round-robin order (the group served longest ago first). Paged, so that many groups locked by other
     * readers do not hide the free ones behind them. Groups held at {@code heldAt} are left out.
     *
     * @param priorities false: the groups in round-robin order only
     */
    private Iterable<UUID> candidates(String queue, Instant heldAt, boolean priorities) throws SQLException {
        return candidates(queue, heldAt, prioritisedCandidates(queue, heldAt, priorities));
    }

    /** As {@link #candidates(String, Instant, boolean)}, the prioritised groups already read. */
    private Iterable<UUID> candidates(String queue, Instant heldAt, List<UUID> prioritised) {
        return () -> new GroupCursor(prioritised, queue, heldAt);
    }

    /** @return the first page of prioritised groups with messages, best first; none when {@code priorities} is false */
    private List<UUID> prioritisedCandidates(String queue, Instant heldAt, boolean priorities) throws SQLException {
        return priorities ? st.list(sql.priorityCandidates, rs -> Jdbc.uuid(rs, "conversation_group_id"), queue,
                heldAt, CANDIDATE_PAGE) : List.of();
    }

    /** @param mayHaveDrained whether the group may have a priority ({@link Received#mayHaveDrainedPrioritised}) */
    private Received take(UUID group, String query, UUID key, int top, boolean mayHaveDrained) throws SQLException {
        List<BrokerMessage> batch = st.list(query, this::readMessage, key, top);
        if (batch.isEmpty()) {
            return Received.NOTHING;
        }
        Long[] orders = new Long[batch.size()];
        for (int i = 0; i < orders.length; i++) {
            orders[i] = batch.get(i).queuingOrder();
        }
        int deleted = st.update(sql.deleteMessages, c.createArrayOf("BIGINT", orders));
        if (deleted != orders.length) {
            throw new SQLException("RECEIVE removed " + deleted + " of " + orders.length + " messages of group "
                    + group + ": another transaction changed them");
        }
        if (sql.parksDrainedGroups()) {
            if (Boolean.TRUE.equals(st.first(sql.turnOrPark(), rs -> rs.getBoolean("parked"), group))) {
                groupsToCheck.add(group);
            }
        } else {
            st.update(sql.nextTurn, group);
        }
        Optional<Map<String, Integer>> attempts = readsAttempts
                ? Optional.of(PortableLedger.attempts(sql, c, batch, st::list)) : Optional.empty();
        return new Received(Collections.unmodifiableList(batch), attempts, false, mayHaveDrained);
    }

    /**
     * Reads a message from the columns every query of messages returns first ({@link PortableSql#messageColumns}),
     * by position: a reader reads every message this way, and a column found by its name costs a lookup each time.
     *
     * @return the message, or null on a row without one (the whole-queue RECEIVE's marker: its queuing order null)
     */
    private BrokerMessage readMessage(ResultSet rs) throws SQLException {
        long queuingOrder = rs.getLong(1);
        if (rs.wasNull()) {
            return null;
        }
        return BrokerMessage.builder()
                .queuingOrder(queuingOrder)
                .conversationGroupId(rs.getObject(2, UUID.class))
                .conversationHandle(rs.getObject(3, UUID.class))
                .messageSequenceNumber(rs.getLong(4))
                .messageTypeName(rs.getString(5))
                .body(rs.getBytes(6))
                .enqueueTime(sql.dialect.enqueueTime(rs, 7))
                .conversationId(rs.getObject(8, UUID.class))
                .serviceName(rs.getString(9))
                .serviceContractName(rs.getString(10))
                .traceContext(rs.getString(11))
                .build();
    }

    /** Walks the prioritised groups, then the round-robin pages. */
    private final class GroupCursor implements java.util.Iterator<UUID> {
        private final List<UUID> page = new ArrayList<>();
        private final String queue;
        private final Set<UUID> seen = new HashSet<>();
        private int index;
        private long lastTurn = Long.MIN_VALUE;
        private boolean exhausted;
        private final Instant heldAt;

        GroupCursor(List<UUID> prioritised, String queue, Instant heldAt) {
            this.page.addAll(prioritised);
            this.seen.addAll(prioritised);
            this.queue = queue;
            this.heldAt = heldAt;
        }

        @Override
        public boolean hasNext() {
            while (index >= page.size()) {
                if (exhausted) {
                    return false;
                }
                loadPage();
            }
            return true;
        }

        @Override
        public UUID next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return page.get(index++);
        }

        private void loadPage() {
            page.clear();
            index = 0;
            try {
                List<Object[]> rows = st.list(sql.candidateGroups,
                        rs -> new Object[] {Jdbc.uuid(rs, "conversation_group_id"), rs.getLong("turn")}, queue,
                        lastTurn, heldAt, CANDIDATE_PAGE);
                for (Object[] row : rows) {
                    lastTurn = (Long) row[1];
                    if (seen.add((UUID) row[0])) {
                        page.add((UUID) row[0]);
                    }
                }
                exhausted = rows.size() < CANDIDATE_PAGE;
            } catch (SQLException e) {
                throw PortableSession.failure("RECEIVE from queue '" + queue + "'", e);
            }
        }
    }

    /** Returns the groups to check once this transaction committed, forgotten here. */
    java.util.Set<UUID> drainGroupsToCheck() {
        if (groupsToCheck.isEmpty()) {
            return java.util.Set.of();
        }
        java.util.Set<UUID> drained = new java.util.HashSet<>();
        for (java.util.Iterator<UUID> it = groupsToCheck.iterator(); it.hasNext();) {
            drained.add(it.next());
            it.remove();
        }
        return drained;
    }

    /**
     * This transaction holds a group until it ends (a RECEIVE of one conversation or group, MOVE CONVERSATION): a
     * SEND to it meanwhile cannot give it its turn (it never waits), so the group is checked after the commit
     * (where groups are parked).
     */
    void heldUntilCommit(UUID group) {
        if (sql.parksDrainedGroups()) {
            groupsToCheck.add(group);
        }
    }
}
