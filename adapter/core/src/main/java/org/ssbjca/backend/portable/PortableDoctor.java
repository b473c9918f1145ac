package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.util.List;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerDoctor;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.FailedDelivery;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SqlWork;
import org.ssbjca.backend.StuckTransmission;

/**
 * The broker doctor on the portable schema (PostgreSQL, H2): its broker is always enabled and has no id (nothing
 * to refuse at start), its transmission queue holds only messages for a disabled queue, and nothing disables a queue
 * but an operator (no poison detection). Statements from {@link PortableDoctorSql}; commits are the caller's.
 */
final class PortableDoctor implements BrokerDoctor {

    private final Connection c;

    PortableDoctor(Connection connection) {
        this.c = connection;
    }

    @Override
    public BrokerState brokerState() {
        return BrokerState.PORTABLE;
    }

    @Override
    public List<StuckTransmission> stuckTransmissions(int max) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max must be between 1 and 1000, was " + max);
        }
        return get("listing the transmission queue", () -> Jdbc.list(c, PortableDoctorSql.STUCK_TRANSMISSIONS,
                rs -> new StuckTransmission(rs.getString("to_queue_name"), Jdbc.uuid(rs, "from_handle"),
                        Jdbc.instant(rs, "enqueued_at"), rs.getString("transmission_status")), max));
    }

    @Override
    public long stuckTransmissionCount() {
        return get("counting the stuck transmissions", () -> Jdbc.count(c, PortableDoctorSql.STUCK_COUNT));
    }

    @Override
    public FailedDelivery lastFailedDelivery(String queue) {
        return get("reading the last failed delivery of " + queue, () -> Jdbc.first(c,
                PortableDoctorSql.LAST_FAILED_DELIVERY, rs -> new FailedDelivery(Jdbc.uuid(rs, "conversation_handle"),
                        rs.getLong("message_sequence_number"), DeliveryLedger.deliveries(rs.getInt("attempts")),
                        rs.getString("last_error"), Jdbc.instant(rs, "last_attempt_at")), queue));
    }

    @Override
    public void enableQueue(String queue) {
        int n = get("enabling queue " + queue, () -> Jdbc.update(c, PortableDoctorSql.ENABLE_QUEUE, queue));
        if (n == 0) {
            throw new BrokerException("queue '" + queue + "' does not exist");
        }
    }

    private static <T> T get(String what, SqlWork<T> query) {
        return SqlWork.call(what, query, PortableSession::failure);
    }
}
