package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The test kit's administration on SQL Server: the real CREATE MESSAGE TYPE, CONTRACT, QUEUE and SERVICE (each only
 * when the catalog does not have the object yet), ALTER QUEUE, and reads of the catalog views. Statements come from
 * {@link TSqlTestAdmin}; commits are the caller's.
 */
public final class SqlServerTestAdmin implements TestAdmin {

    private final Connection c;
    private final BrokerAdmin reads;

    /** @param connection the connection the statements run on */
    public SqlServerTestAdmin(Connection connection) {
        this.c = Objects.requireNonNull(connection, "connection");
        this.reads = new SqlServerAdmin(connection);
    }

    @Override
    public void createMessageType(String name, Validation validation) {
        String sql = TSqlTestAdmin.createMessageType(name, Objects.requireNonNull(validation, "validation"));
        run("CREATE MESSAGE TYPE " + name, () -> Batches.run(c, sql, name));
    }

    @Override
    public void createContract(String name, Map<String, SentBy> messageTypes) {
        String sql = TSqlTestAdmin.createContract(name, Objects.requireNonNull(messageTypes, "messageTypes"));
        run("CREATE CONTRACT " + name, () -> Batches.run(c, sql, name));
    }

    @Override
    public void createQueue(String name) {
        QueueName queue = SqlServerNames.queue(name);
        run("CREATE QUEUE " + queue, () -> Batches.run(c, TSqlTestAdmin.createQueue(queue), queue.quoted()));
    }

    @Override
    public void createService(String name, String queue, String... contracts) {
        String sql = TSqlTestAdmin.createService(name, SqlServerNames.queue(queue), contracts);
        run("CREATE SERVICE " + name, () -> Batches.run(c, sql, name));
    }

    @Override
    public void setQueueEnabled(String queue, boolean enabled) {
        QueueName q = SqlServerNames.queue(queue);
        run("ALTER QUEUE " + q + " WITH STATUS", () -> Batches.run(c, TSqlTestAdmin.setQueueStatus(q, enabled)));
    }

    @Override
    public boolean isQueueEnabled(String queue) {
        return reads.isQueueEnabled(queue);
    }

    @Override
    public long queueDepth(String queue) {
        return reads.queueDepth(queue);
    }

    @Override
    public java.time.Instant oldestMessage(String queue) {
        return reads.oldestMessage(queue);
    }

    @Override
    public long pendingGroupCount(String queue) {
        return reads.pendingGroupCount(queue);
    }

    @Override
    public List<org.ssbjca.backend.EndpointCount> conversationEndpoints(java.time.Instant begunBefore) {
        return reads.conversationEndpoints(begunBefore);
    }

    @Override
    public List<UUID> conversationHandles(String service, String state, java.time.Instant begunBefore, int max) {
        return reads.conversationHandles(service, state, begunBefore, max);
    }

    @Override
    public long transmissionQueueDepth() {
        return reads.transmissionQueueDepth();
    }

    @Override
    public String endpointState(UUID handle) {
        List<String> state = get("reading endpoint " + handle, () -> Batches.query(c, TSqlTestAdmin.ENDPOINT_STATE, 0,
                rs -> rs.getString(1), Batches.text(Objects.requireNonNull(handle, "handle"))));
        return state.isEmpty() || state.get(0) == null ? null : state.get(0).trim();
    }

    @Override
    public long endpointCount() {
        return count("counting endpoints", TSqlTestAdmin.ENDPOINT_COUNT);
    }

    @Override
    public UUID peerHandle(UUID handle) {
        List<UUID> peer = get("reading the peer of " + handle, () -> Batches.query(c, TSqlTestAdmin.PEER_HANDLE, 0,
                rs -> Batches.uuid(rs, "conversation_handle"), Batches.text(Objects.requireNonNull(handle, "handle"))));
        return peer.isEmpty() ? null : peer.get(0);
    }

    @Override
    public void purgeConversations() {
        run("purging conversations", () -> Batches.run(c, TSqlTestAdmin.PURGE_CONVERSATIONS));
    }

    private long count(String what, String sql) {
        List<Long> n = get(what, () -> Batches.query(c, sql, 0, rs -> rs.getLong(1)));
        return n.isEmpty() ? 0 : n.get(0);
    }

    private static void run(String what, SqlWork.Action action) {
        SqlWork.run(what, action, (w, e) -> SqlServerErrors.translate(w, null, e));
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, (w, e) -> SqlServerErrors.translate(w, null, e));
    }
}
