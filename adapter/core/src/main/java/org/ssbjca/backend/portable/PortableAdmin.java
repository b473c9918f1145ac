package org.ssbjca.backend.portable;

import java.sql.Connection;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.EndpointCount;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SqlWork;

/** What the adapter reads about a queue of the portable schema: queues are rows. */
final class PortableAdmin implements BrokerAdmin {

    private final PortableBroker broker;
    private final PortableSql sql;
    private final Connection c;

    PortableAdmin(PortableBroker broker, Connection connection) {
        this.broker = broker;
        this.sql = broker.sql();
        this.c = connection;
    }

    @Override
    public boolean isQueueEnabled(String queue) {
        return get("reading the status of queue " + queue, () -> {
            Boolean enabled = Jdbc.first(c, sql.queueEnabled, rs -> rs.getBoolean(1), queue);
            if (enabled == null) {
                throw new BrokerException("queue '" + queue + "' does not exist");
            }
            return enabled;
        });
    }

    /**
     * Names the portable schema's {@code UPDATE} that enables the queue ({@link PortableSql#enableQueue}). A reader
     * asks as it connects, at its start and again after each failure (a disabled queue's among them): an enabled queue
     * then gets the messages that waited for it in the transmission queue, moved at once on a connection of their own
     * ({@link Transmissions#moveIfDue}: one probe when there are none), so that they are delivered within the
     * readers' backoff, not at the housekeeping's next repair pass: a page of them before it returns (the reader
     * holds its activation's reconnect gate meanwhile), the rest by a background move while the readers deliver.
     */
    @Override
    public void requireEnabled(String queue) {
        if (!isQueueEnabled(queue)) {
            throw PortableSql.queueDisabled(queue);
        }
        broker.transmissions().moveIfDue(c, queue);
    }

    @Override
    public long queueDepth(String queue) {
        return get("counting queue " + queue, () -> Jdbc.count(c, sql.queueDepth, queue));
    }

    @Override
    public java.time.Instant oldestMessage(String queue) {
        return get("reading the oldest message of queue " + queue,
                () -> Jdbc.first(c, sql.oldestMessage, rs -> Jdbc.instant(rs, "oldest"), queue));
    }

    @Override
    public long pendingGroupCount(String queue) {
        return get("counting the pending groups of " + queue, () -> Jdbc.count(c, sql.pendingGroupCount, queue));
    }

    @Override
    public long transmissionQueueDepth() {
        return get("counting the transmission queue", () -> Jdbc.count(c, sql.transmissionQueueDepth));
    }

    @Override
    public java.util.List<EndpointCount> conversationEndpoints(java.time.Instant begunBefore) {
        return get("counting conversation endpoints", () -> Jdbc.list(c, sql.conversationEndpoints,
                rs -> new EndpointCount(rs.getString("service_name"), rs.getString("state"), rs.getLong("n"),
                        Jdbc.instant(rs, "oldest")), begunBefore == null, orEpoch(begunBefore)));
    }

    @Override
    public java.util.List<java.util.UUID> conversationHandles(String service, String state,
            java.time.Instant begunBefore, int max) {
        return get("listing conversations of " + service + " in state " + state, () -> Jdbc.list(c,
                sql.conversationHandles, rs -> Jdbc.uuid(rs, "conversation_handle"), service, state,
                begunBefore == null, orEpoch(begunBefore), max));
    }

    private static java.time.Instant orEpoch(java.time.Instant instant) {
        return instant == null ? java.time.Instant.EPOCH : instant;
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, PortableSession::failure);
    }
}
