package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.util.List;
import java.util.Objects;
import org.ssbjca.backend.BrokerDoctor;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.FailedDelivery;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.StuckTransmission;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/** The broker doctor on SQL Server: statements from {@link TSqlDoctor}; commits are the caller's. */
final class SqlServerDoctor implements BrokerDoctor {

    private final Connection c;

    SqlServerDoctor(Connection connection) {
        this.c = Objects.requireNonNull(connection, "connection");
    }

    @Override
    public BrokerState brokerState() {
        List<BrokerState> state = get("reading the database's Service Broker state", () -> Batches.query(c,
                TSqlDoctor.BROKER_STATE, 0, rs -> new BrokerState(rs.getString("name"),
                        rs.getBoolean("is_broker_enabled"), Batches.uuid(rs, "service_broker_guid"))));
        if (state.isEmpty()) {
            throw new IllegalStateException("sys.databases has no row for the current database");
        }
        return state.get(0);
    }

    @Override
    public List<StuckTransmission> stuckTransmissions(int max) {
        requireMax(max);
        return get("listing the transmission queue", () -> Batches.query(c, TSqlDoctor.STUCK_TRANSMISSIONS, 0,
                rs -> new StuckTransmission(rs.getString("to_service_name"), Batches.uuid(rs, "conversation_handle"),
                        Jdbc.instant(rs, "enqueued"), rs.getString("transmission_status")), max));
    }

    @Override
    public long stuckTransmissionCount() {
        List<Long> n = get("counting the stuck transmissions", () -> Batches.query(c, TSqlDoctor.STUCK_COUNT, 0,
                rs -> rs.getLong(1)));
        return n.isEmpty() ? 0 : n.get(0);
    }

    @Override
    public FailedDelivery lastFailedDelivery(String queue) {
        SqlServerNames.queue(queue);
        List<FailedDelivery> last = get("reading the last failed delivery of " + queue, () -> Batches.query(c,
                TSqlDoctor.LAST_FAILED_DELIVERY, 0, rs -> new FailedDelivery(Batches.uuid(rs, "conversation_handle"),
                        rs.getLong("message_sequence_number"), DeliveryLedger.deliveries(rs.getInt("attempts")),
                        rs.getString("last_error"), Jdbc.instant(rs, "last_attempt_at")), queue));
        return last.isEmpty() ? null : last.get(0);
    }

    @Override
    public void enableQueue(String queue) {
        QueueName q = SqlServerNames.queue(queue);
        get("enabling queue " + q, () -> {
            Batches.run(c, TSqlDoctor.enableQueue(q));
            return null;
        });
    }

    static void requireMax(int max) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max must be between 1 and 1000, was " + max);
        }
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, (w, e) -> SqlServerErrors.translate(w, null, e));
    }
}
