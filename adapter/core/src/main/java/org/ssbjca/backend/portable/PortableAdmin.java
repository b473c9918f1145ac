package org.ssbjca.backend.portable;

import java.sql.Connection;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SqlWork;

/** What the adapter reads about a queue of the portable schema: queues are rows. */
final class PortableAdmin implements BrokerAdmin {

    private final PortableSql sql;
    private final Connection c;

    PortableAdmin(PortableBroker broker, Connection connection) {
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

    @Override
    public long queueDepth(String queue) {
        return get("counting queue " + queue, () -> Jdbc.count(c, sql.queueDepth, queue));
    }

    @Override
    public java.time.Instant oldestMessage(String queue) {
        return get("reading the oldest message of queue " + queue,
                () -> Jdbc.first(c, sql.oldestMessage, rs -> Jdbc.instant(rs, "oldest"), queue));
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, PortableSession::failure);
    }
}
