package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.util.List;
import java.util.Objects;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.EndpointCount;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * What the adapter reads about a SQL Server queue: sys.service_queues and the queue itself. Statements come from
 * {@link TSqlAdmin}; commits are the caller's.
 */
public final class SqlServerAdmin implements BrokerAdmin {

    private final Connection c;

    /** @param connection the connection the statements run on */
    public SqlServerAdmin(Connection connection) {
        this.c = Objects.requireNonNull(connection, "connection");
    }

    @Override
    public boolean isQueueEnabled(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        List<Boolean> enabled = get("reading the status of queue " + q,
                () -> Batches.query(c, TSqlAdmin.QUEUE_ENABLED, 0, rs -> rs.getBoolean(1), q.quoted()));
        if (enabled.isEmpty()) {
            throw new BrokerException("queue '" + queue + "' does not exist");
        }
        return enabled.get(0);
    }

    @Override
    public long queueDepth(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        List<Long> n = get("counting queue " + q, () -> Batches.query(c, TSqlAdmin.queueDepth(q), 0,
                rs -> rs.getLong(1)));
        return n.isEmpty() ? 0 : n.get(0);
    }

    @Override
    public java.time.Instant oldestMessage(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        List<java.time.Instant> oldest = get("reading the oldest message of queue " + q, () -> Batches.query(c,
                TSqlAdmin.oldestMessage(q), 0, rs -> Jdbc.instant(rs, "oldest")));
        return oldest.isEmpty() ? null : oldest.get(0);
    }

    @Override
    public long pendingGroupCount(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        return count("counting the pending groups of " + q, TSqlAdmin.pendingGroupCount(q));
    }

    @Override
    public long transmissionQueueDepth() {
        return count("counting the transmission queue", TSqlAdmin.TRANSMISSION_QUEUE_DEPTH);
    }

    @Override
    public List<EndpointCount> conversationEndpoints(java.time.Instant begunBefore) {
        return get("counting conversation endpoints", () -> Batches.query(c, TSqlAdmin.CONVERSATION_ENDPOINTS, 0,
                rs -> new EndpointCount(rs.getString("service_name"), rs.getString("state").trim(), rs.getLong("n"),
                        Jdbc.instant(rs, "oldest")), begunBefore == null, orEpoch(begunBefore)));
    }

    @Override
    public List<java.util.UUID> conversationHandles(String service, String state, java.time.Instant begunBefore,
            int max) {
        return get("listing conversations of " + service + " in state " + state, () -> Batches.query(c,
                TSqlAdmin.CONVERSATION_HANDLES, 0, rs -> Batches.uuid(rs, "conversation_handle"), service, state,
                begunBefore == null, orEpoch(begunBefore), max));
    }

    private static java.time.Instant orEpoch(java.time.Instant instant) {
        return instant == null ? java.time.Instant.EPOCH : instant;
    }

    private long count(String what, String sql) {
        List<Long> n = get(what, () -> Batches.query(c, sql, 0, rs -> rs.getLong(1)));
        return n.isEmpty() ? 0 : n.get(0);
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, (w, e) -> SqlServerErrors.translate(w, null, e));
    }
}
