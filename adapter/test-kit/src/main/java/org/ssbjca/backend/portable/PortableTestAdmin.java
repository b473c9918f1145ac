package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;

/**
 * The test kit's administration of the portable schema: declared objects are rows. Statements from
 * {@link PortableKitSql}, and {@link PortableSql} for what the adapter itself also runs.
 */
public final class PortableTestAdmin implements TestAdmin {

    private final PortableBroker broker;
    private final PortableSql sql;
    private final Connection c;

    private final BrokerAdmin reads;

    /**
     * @param broker the broker
     * @param connection the connection the statements run on
     */
    public PortableTestAdmin(PortableBroker broker, Connection connection) {
        this.broker = broker;
        this.sql = broker.sql();
        this.c = connection;
        this.reads = broker.admin(connection);
    }

    @Override
    public void createMessageType(String name, Validation validation) {
        run("CREATE MESSAGE TYPE " + name, () -> {
            if (!Jdbc.exists(c, sql.messageTypeExists, name)) {
                Jdbc.update(c, PortableKitSql.INSERT_MESSAGE_TYPE, name, validation.name());
            }
        });
    }

    @Override
    public void createContract(String name, Map<String, SentBy> messageTypes) {
        run("CREATE CONTRACT " + name, () -> {
            if (Jdbc.exists(c, sql.contractExists, name)) {
                return;
            }
            if (messageTypes.values().stream().noneMatch(sentBy -> sentBy.allows(true))) {
                throw new BrokerException("CREATE CONTRACT " + name + ": at least one message type must be SENT BY "
                        + "INITIATOR or ANY");
            }
            Jdbc.update(c, PortableKitSql.INSERT_CONTRACT, name);
            for (Map.Entry<String, SentBy> e : messageTypes.entrySet()) {
                if (!Jdbc.exists(c, sql.messageTypeExists, e.getKey())) {
                    throw new BrokerException("CREATE CONTRACT " + name + ": message type '" + e.getKey()
                            + "' does not exist");
                }
                Jdbc.update(c, PortableKitSql.INSERT_CONTRACT_MESSAGE_TYPE, name, e.getKey(), e.getValue().name());
            }
        });
    }

    @Override
    public void createQueue(String name) {
        run("CREATE QUEUE " + name, () -> {
            if (!Jdbc.exists(c, PortableKitSql.QUEUE_EXISTS, name)) {
                Jdbc.update(c, PortableKitSql.INSERT_QUEUE, name);
            }
        });
    }

    @Override
    public void createService(String name, String queue, String... contracts) {
        run("CREATE SERVICE " + name, () -> {
            if (Jdbc.exists(c, PortableKitSql.SERVICE_EXISTS, name)) {
                return;
            }
            if (!Jdbc.exists(c, PortableKitSql.QUEUE_EXISTS, queue)) {
                throw new BrokerException("CREATE SERVICE " + name + ": queue '" + queue + "' does not exist");
            }
            Jdbc.update(c, PortableKitSql.INSERT_SERVICE, name, queue);
            for (String contract : contracts) {
                if (!Jdbc.exists(c, sql.contractExists, contract)) {
                    throw new BrokerException("CREATE SERVICE " + name + ": contract '" + contract
                            + "' does not exist");
                }
                Jdbc.update(c, PortableKitSql.INSERT_SERVICE_CONTRACT, name, contract);
            }
        });
    }

    @Override
    public void setQueueEnabled(String queue, boolean enabled) {
        run("ALTER QUEUE " + queue + " WITH STATUS", () -> {
            if (Jdbc.update(c, PortableKitSql.SET_QUEUE_ENABLED, enabled, queue) == 0) {
                throw new BrokerException("ALTER QUEUE: queue '" + queue + "' does not exist");
            }
            if (enabled) {
                flushTransmissionQueue(queue);
            }
        });
    }

    /**
     * Moves the messages that waited for a disabled queue onto it, in the order they were sent, as the adapter does
     * ({@link Transmissions#move}), in this connection's transaction.
     */
    private void flushTransmissionQueue(String queue) throws SQLException {
        PortableSession session = (PortableSession) broker.session(c);
        Transmissions.Moved moved = Transmissions.move(sql, session, queue, Integer.MAX_VALUE);
        if (moved.moved() > 0 && c.getAutoCommit()) {
            session.afterCompletion(true);
        }
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
        return get("reading endpoint " + handle, () -> {
            String state = Jdbc.first(c, PortableKitSql.ENDPOINT_STATE, rs -> rs.getString(1), handle);
            return state == null ? null : state.trim();
        });
    }

    @Override
    public long endpointCount() {
        return get("counting endpoints", () -> Jdbc.count(c, PortableKitSql.ENDPOINT_COUNT));
    }

    @Override
    public UUID peerHandle(UUID handle) {
        return get("reading the peer of " + handle, () -> Jdbc.first(c, PortableKitSql.PEER_HANDLE,
                rs -> Jdbc.uuid(rs, "conversation_handle"), handle));
    }

    @Override
    public void purgeConversations() {
        run("purging conversations", () -> {
            try (Statement s = c.createStatement()) {
                for (String statement : PortableKitSql.PURGE) {
                    s.executeUpdate(statement);
                }
            }
        });
    }

    private static void run(String what, SqlWork.Action action) {
        SqlWork.run(what, action, PortableSession::failure);
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, PortableSession::failure);
    }
}
