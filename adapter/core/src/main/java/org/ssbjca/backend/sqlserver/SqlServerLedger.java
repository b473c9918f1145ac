package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.PendingGroup;
import org.ssbjca.backend.PriorityRequest;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/** The adapter's bookkeeping on SQL Server: statements from {@link TSqlLedger}, on the caller's connection. */
final class SqlServerLedger implements DeliveryLedger {

    private final Connection c;

    SqlServerLedger(Connection connection) {
        this.c = Objects.requireNonNull(connection, "connection");
    }

    @Override
    public Map<String, Integer> attempts(List<BrokerMessage> messages) {
        if (messages.isEmpty()) {
            return Map.of();
        }
        return get("reading failed deliveries", null, () -> {
            Map<String, Integer> out = new HashMap<>();
            for (Object[] row : Batches.query(c, TSqlLedger.ATTEMPTS_OF, 0, rs -> new Object[] {
                Batches.uuid(rs, "conversation_handle"), rs.getLong("message_sequence_number"), rs.getInt("attempts")},
                    keys(messages))) {
                out.put(row[0] + "/" + row[1], (Integer) row[2]);
            }
            return out;
        });
    }

    /**
     * Returns the keys of received messages as the XML of {@link TSqlLedger#ATTEMPTS_OF}: handles and numbers only,
     * nothing to escape.
     *
     * @param messages received messages
     */
    static String keys(List<BrokerMessage> messages) {
        StringBuilder xml = new StringBuilder(messages.size() * 56);
        for (BrokerMessage m : messages) {
            xml.append("<k h=\"").append(m.conversationHandle()).append("\" s=\"").append(m.messageSequenceNumber())
                    .append("\"/>");
        }
        return xml.toString();
    }

    @Override
    public void boundLockWaits(int millis) {
        get("bounding lock waits", null, () -> {
            SqlServerBroker.setLockTimeout(c, millis);
            return null;
        });
    }

    @Override
    public int recordFailure(String queue, BrokerMessage m, String error) {
        List<Integer> n = get("recording a failed delivery", queue, () -> Batches.query(c, TSqlLedger.RECORD_FAILURE,
                0, rs -> rs.getInt(1), Batches.text(m.conversationHandle()), m.messageSequenceNumber(), queue,
                Jdbc.orNull(DeliveryLedger.errorText(error), Types.NVARCHAR)));
        return n.isEmpty() ? 0 : n.get(0);
    }

    @Override
    public int recordUnrecoverable(String queue, BrokerMessage m, String error) {
        List<Integer> n = get("recording an unrecoverable delivery", queue, () -> Batches.query(c,
                TSqlLedger.RECORD_UNRECOVERABLE, 0, rs -> rs.getInt(1), Batches.text(m.conversationHandle()),
                m.messageSequenceNumber(), queue, Jdbc.orNull(DeliveryLedger.errorText(error), Types.NVARCHAR)));
        return n.isEmpty() ? DeliveryLedger.SET_ASIDE : n.get(0);
    }

    @Override
    public void holdGroup(String queue, UUID group, Duration hold) {
        get("holding a conversation group of " + queue, queue, () -> {
            Batches.run(c, TSqlLedger.HOLD_GROUP, Batches.text(group), queue,
                    (int) Math.min(Integer.MAX_VALUE, hold.toMillis()));
            return null;
        });
        GroupPresence.held();
    }

    @Override
    public void clearAttempts(List<BrokerMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        StringBuilder groups = new StringBuilder();
        for (UUID group : DeliveryLedger.groupsOf(messages)) {
            groups.append("<g id=\"").append(group).append("\"/>");
        }
        get("forgetting failed deliveries", null, () -> {
            Batches.run(c, TSqlLedger.CLEAR_ATTEMPTS, keys(messages), groups.toString());
            return null;
        });
    }

    @Override
    public void deadLetter(String queue, BrokerMessage m, int attempts, String error, UUID copyConversationId) {
        get("dead-lettering a message of " + queue, queue, () -> {
            Batches.run(c, TSqlLedger.DEAD_LETTER, Batches.text(m.conversationHandle()), m.messageSequenceNumber(),
                    text(DeliveryLedger.errorText(error)), queue, text(Batches.text(m.conversationGroupId())),
                    text(Batches.text(m.conversationId())), m.messageTypeName(), text(m.serviceName()),
                    text(m.serviceContractName()), Jdbc.orNull(m.body(), Types.VARBINARY),
                    Jdbc.orNull(m.enqueueTime(), Types.TIMESTAMP_WITH_TIMEZONE), attempts,
                    text(Batches.text(copyConversationId)));
            return null;
        });
    }

    @Override
    public List<DeadLetter> deadLetters(String queue, long afterId, int limit) {
        return get("listing dead letters of " + queue, queue, () -> Batches.query(c, TSqlLedger.DEAD_LETTERS, 0,
                SqlServerLedger::readDeadLetter, limit, queue, afterId));
    }

    @Override
    public List<DeadLetter> findDeadLetters(String queue, String text, boolean bodies, long afterId, int limit) {
        boolean looking = text != null && !text.isEmpty();
        String statement = TSqlLedger.findDeadLetters(looking, bodies);
        Object[] params = looking ? new Object[] {limit, queue, afterId, TSqlLedger.containing(text),
            TSqlLedger.containing(text), TSqlLedger.containing(text),
            text.getBytes(java.nio.charset.StandardCharsets.UTF_8)} : new Object[] {limit, queue, afterId};
        return get("searching the dead letters of " + queue, queue, () -> Batches.query(c, statement, 0,
                SqlServerLedger::readDeadLetter, params));
    }

    @Override
    public DeadLetter takeDeadLetter(String queue, long id) {
        List<DeadLetter> taken = get("taking dead letter " + id, queue,
                () -> Batches.query(c, TSqlLedger.TAKE_DEAD_LETTER, 0, SqlServerLedger::readDeadLetter, queue, id));
        return taken.isEmpty() ? null : taken.get(0);
    }

    @Override
    public int purgeDeadLetters(String queue) {
        return get("purging dead letters of " + queue, queue,
                () -> (int) Jdbc.count(c, TSqlLedger.PURGE_DEAD_LETTERS, queue));
    }

    @Override
    public long deadLetterCount(String queue) {
        return get("counting dead letters of " + queue, queue, () -> Jdbc.count(c, TSqlLedger.DEAD_LETTER_COUNT, queue));
    }

    @Override
    public int purgeDeadLettersBefore(String queue, java.time.Instant before) {
        return get("purging dead letters of " + queue + " set aside before " + before, queue,
                () -> (int) Jdbc.count(c, TSqlLedger.PURGE_DEAD_LETTERS_BEFORE, queue, before));
    }

    @Override
    public List<PriorityRequest> priorityRequests(String queue, String messageType) {
        QueueName q = SqlServerNames.queue(queue);
        return get("looking for priority requests in " + q, queue, () -> Batches.query(c,
                TSqlLedger.priorityRequests(q), 0, rs -> new PriorityRequest(Batches.uuid(rs, "conversation_group_id"),
                        rs.getBytes("message_body")), messageType));
    }

    @Override
    public Map<UUID, Integer> priorities(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        return get("reading priorities of " + q, queue, () -> {
            Map<UUID, Integer> out = new LinkedHashMap<>();
            Batches.query(c, TSqlLedger.PRIORITIES, 0,
                    rs -> out.put(Batches.uuid(rs, "conversation_group_id"), rs.getInt("priority")), q.quoted());
            return out;
        });
    }

    @Override
    public void clearPriorityIfDrained(String queue, UUID group) {
        QueueName q = SqlServerNames.queue(queue);
        get("clearing the priority of " + group, queue, () -> {
            Batches.run(c, TSqlLedger.clearPriorityIfDrained(q), Batches.text(group));
            return null;
        });
    }

    /** Always true: the RECEIVE of the conversation that follows is one round trip, as a look would be. */
    @Override
    public boolean mayHaveQueued(UUID handle, String messageType) {
        return true;
    }

    @Override
    public List<PendingGroup> pendingGroups(String queue, int limit) {
        QueueName q = SqlServerNames.queue(queue);
        return get("listing pending groups of " + q, queue, () -> Batches.query(c, TSqlLedger.pendingGroups(q), 0,
                rs -> {
                    int p = rs.getInt("priority");
                    Integer priority = rs.wasNull() ? null : p;
                    return new PendingGroup(Batches.uuid(rs, "conversation_group_id"), rs.getLong("messages"),
                            Jdbc.instant(rs, "oldest"), priority);
                }, limit));
    }

    /** A text parameter that may be NULL, as NVARCHAR (UUIDs are bound as text: {@link Batches#text}). */
    private static Object text(String value) {
        return Jdbc.orNull(value, Types.NVARCHAR);
    }

    static DeadLetter readDeadLetter(ResultSet rs) throws SQLException {
        return DeadLetter.read(rs, Batches::uuid);
    }

    private static <T> T get(String what, String queue, SqlWork<T> work) {
        return SqlWork.call(what, work, (w, e) -> SqlServerErrors.translate(w, queue, e));
    }
}
