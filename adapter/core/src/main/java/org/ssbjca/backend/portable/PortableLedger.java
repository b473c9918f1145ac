package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.PendingGroup;
import org.ssbjca.backend.PriorityRequest;
import org.ssbjca.backend.SqlWork;

/** The adapter's bookkeeping tables of the portable schema. */
final class PortableLedger implements DeliveryLedger {

    private final PortableBroker broker;
    private final PortableSql sql;
    private final Connection c;

    PortableLedger(PortableBroker broker, Connection c) {
        this.broker = broker;
        this.sql = broker.sql();
        this.c = c;
    }

    @Override
    public Map<String, Integer> attempts(List<BrokerMessage> messages) {
        return get("reading failed deliveries", () -> attempts(sql, c, messages, (q, m, p) -> Jdbc.list(c, q, m, p)));
    }

    /** Runs a query: {@link Jdbc#list} on a connection, or a session's kept statements ({@code Statements.list}). */
    @FunctionalInterface
    interface Rows {
        List<Object[]> list(String sql, Jdbc.RowMapper<Object[]> mapper, Object... params) throws SQLException;
    }

    /**
     * The failed deliveries recorded for messages, in one statement ({@link PortableSql#attemptsOfMessages}): what the
     * ledger's {@link #attempts} returns, and what a RECEIVE reads for the messages it took
     * ({@code MessageStore.take}).
     *
     * @param c the connection the arrays are made on
     * @param messages messages
     * @param rows runs the statement, in the caller's transaction
     * @return their failed deliveries by {@link DeliveryLedger#key}; messages without any are absent
     */
    static Map<String, Integer> attempts(PortableSql sql, Connection c, List<BrokerMessage> messages, Rows rows)
            throws SQLException {
        if (messages.isEmpty()) {
            return Map.of();
        }
        UUID[] handles = new UUID[messages.size()];
        Long[] numbers = new Long[messages.size()];
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (int i = 0; i < handles.length; i++) {
            BrokerMessage m = messages.get(i);
            handles[i] = m.conversationHandle();
            numbers[i] = m.messageSequenceNumber();
            keys.add(DeliveryLedger.key(m));
        }
        Map<String, Integer> out = new HashMap<>();
        for (Object[] row : rows.list(sql.attemptsOfMessages(), rs -> new Object[] {
            DeliveryLedger.key(Jdbc.uuid(rs, "conversation_handle"), rs.getLong("message_sequence_number")),
            rs.getInt("attempts")}, c.createArrayOf("UUID", handles), c.createArrayOf("BIGINT", numbers))) {
            // on H2 a row may pair one message's handle with another's number: only the batch's own count
            if (keys.contains((String) row[0])) {
                out.put((String) row[0], (Integer) row[1]);
            }
        }
        return out;
    }

    @Override
    public void boundLockWaits(int millis) {
        run("bounding lock waits", () -> {
            try (java.sql.Statement st = c.createStatement()) {
                st.execute(sql.lockWait(millis));
            }
        });
    }

    @Override
    public int recordFailure(String queue, BrokerMessage m, String error) {
        return get("recording a failed delivery", () -> {
            Object why = Jdbc.orNull(DeliveryLedger.errorText(error), Types.VARCHAR);
            if (Jdbc.update(c, sql.incrementAttempts, why, broker.now(), m.conversationHandle(),
                    m.messageSequenceNumber()) == 0) {
                Jdbc.update(c, sql.insertAttempt, m.conversationHandle(), m.messageSequenceNumber(), queue, why,
                        broker.now());
            }
            return Jdbc.first(c, sql.attemptsOf, rs -> rs.getInt("attempts"), m.conversationHandle(),
                    m.messageSequenceNumber());
        });
    }

    @Override
    public int recordUnrecoverable(String queue, BrokerMessage m, String error) {
        int n = recordFailure(queue, m, error);
        if (n >= DeliveryLedger.SET_ASIDE) {
            return n;
        }
        run("marking a message set aside", () -> Jdbc.update(c, sql.markSetAside, m.conversationHandle(),
                m.messageSequenceNumber()));
        return n + DeliveryLedger.SET_ASIDE;
    }

    @Override
    public void holdGroup(String queue, UUID group, Duration hold) {
        run("holding a conversation group of " + queue, () -> {
            Instant until = broker.now().plus(hold);
            if (Jdbc.update(c, sql.updateHold, until, group) == 0) {
                Jdbc.update(c, sql.insertHold, group, queue, until);
            }
            broker.signals().wakeAt(queue, hold);
        });
    }

    @Override
    public void clearAttempts(List<BrokerMessage> messages) {
        run("forgetting failed deliveries", () -> {
            for (BrokerMessage m : messages) {
                Jdbc.update(c, sql.deleteAttempt, m.conversationHandle(), m.messageSequenceNumber());
            }
            for (UUID group : DeliveryLedger.groupsOf(messages)) {
                Jdbc.update(c, sql.deleteHold, group);
            }
        });
    }

    @Override
    public void deadLetter(String queue, BrokerMessage m, int attempts, String error, UUID copyConversationId) {
        run("dead-lettering a message of " + queue, () -> {
            Jdbc.update(c, sql.insertDeadLetter, queue, Jdbc.orNull(m.conversationGroupId(), Types.OTHER),
                    m.conversationHandle(), Jdbc.orNull(m.conversationId(), Types.OTHER), m.messageSequenceNumber(),
                    m.messageTypeName(), Jdbc.orNull(m.serviceName(), Types.VARCHAR),
                    Jdbc.orNull(m.serviceContractName(), Types.VARCHAR), Jdbc.orNull(m.body(), Types.VARBINARY),
                    Jdbc.orNull(m.enqueueTime(), Types.TIMESTAMP_WITH_TIMEZONE), attempts,
                    Jdbc.orNull(DeliveryLedger.errorText(error), Types.VARCHAR), m.conversationHandle(),
                    m.messageSequenceNumber(), broker.now(), Jdbc.orNull(copyConversationId, Types.OTHER));
            Jdbc.update(c, sql.deleteAttempt, m.conversationHandle(), m.messageSequenceNumber());
        });
    }

    @Override
    public List<DeadLetter> deadLetters(String queue, long afterId, int limit) {
        return get("listing dead letters of " + queue, () -> Jdbc.list(c, sql.deadLetters,
                PortableLedger::readDeadLetter, queue, afterId, limit));
    }

    @Override
    public List<DeadLetter> findDeadLetters(String queue, String text, boolean bodies, long afterId, int limit) {
        boolean looking = text != null && !text.isEmpty();
        String statement = PortableSql.findDeadLetters(looking, bodies);
        Object[] params = looking ? new Object[] {queue, afterId, PortableSql.containing(text),
            PortableSql.containing(text), PortableSql.containing(text),
            text.getBytes(java.nio.charset.StandardCharsets.UTF_8), limit} : new Object[] {queue, afterId, limit};
        return get("searching the dead letters of " + queue, () -> Jdbc.list(c, statement,
                PortableLedger::readDeadLetter, params));
    }

    @Override
    public DeadLetter takeDeadLetter(String queue, long id) {
        return get("taking dead letter " + id, () -> {
            DeadLetter d = Jdbc.first(c, sql.lockDeadLetter, PortableLedger::readDeadLetter, queue, id);
            if (d != null) {
                Jdbc.update(c, sql.deleteDeadLetter, id);
            }
            return d;
        });
    }

    @Override
    public int purgeDeadLetters(String queue) {
        return get("purging dead letters of " + queue, () -> Jdbc.update(c, sql.purgeDeadLetters, queue));
    }

    @Override
    public long deadLetterCount(String queue) {
        return get("counting dead letters of " + queue, () -> Jdbc.count(c, sql.deadLetterCount, queue));
    }

    @Override
    public int purgeDeadLettersBefore(String queue, java.time.Instant before) {
        return get("purging dead letters of " + queue + " set aside before " + before,
                () -> Jdbc.update(c, sql.purgeDeadLettersBefore, queue, before));
    }

    @Override
    public List<PriorityRequest> priorityRequests(String queue, String messageType) {
        return get("looking for priority requests in " + queue, () -> Jdbc.list(c, sql.priorityRequests,
                rs -> new PriorityRequest(Jdbc.uuid(rs, "conversation_group_id"), rs.getBytes("message_body")),
                queue, messageType));
    }

    @Override
    public Map<UUID, Integer> priorities(String queue) {
        return get("reading priorities of " + queue, () -> {
            Map<UUID, Integer> out = new LinkedHashMap<>();
            Jdbc.list(c, sql.priorities, rs -> out.put(Jdbc.uuid(rs, "conversation_group_id"), rs.getInt("priority")),
                    queue);
            return out;
        });
    }

    @Override
    public void clearPriorityIfDrained(String queue, UUID group) {
        run("clearing the priority of " + group, () -> Jdbc.update(c, sql.clearPriorityIfDrained, group, group));
    }

    @Override
    public boolean mayHaveQueued(UUID handle, String messageType) {
        return get("looking for " + messageType + " messages of conversation " + handle,
                () -> Jdbc.exists(c, sql.hasMessageOfType, handle, messageType));
    }

    @Override
    public List<PendingGroup> pendingGroups(String queue, int limit) {
        return get("listing pending groups of " + queue, () -> Jdbc.list(c, sql.pendingGroups, rs -> {
            int p = rs.getInt("priority");
            Integer priority = rs.wasNull() ? null : p;
            return new PendingGroup(Jdbc.uuid(rs, "conversation_group_id"), rs.getLong("messages"),
                    Jdbc.instant(rs, "oldest"), priority);
        }, queue, limit));
    }

    static DeadLetter readDeadLetter(ResultSet rs) throws SQLException {
        return DeadLetter.read(rs, Jdbc::uuid);
    }

    private static void run(String what, SqlWork.Action action) {
        SqlWork.run(what, action, PortableSession::failure);
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, PortableSession::failure);
    }
}
