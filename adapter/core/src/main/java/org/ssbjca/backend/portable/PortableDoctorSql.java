package org.ssbjca.backend.portable;

/**
 * The broker doctor's statements on the portable schema ({@link PortableDoctor}), the same text on PostgreSQL and
 * H2; values bound.
 */
final class PortableDoctorSql {

    private PortableDoctorSql() {
    }

    /** The oldest messages waiting for a disabled queue. Parameter: max. */
    static final String STUCK_TRANSMISSIONS = "SELECT to_queue_name, from_handle, enqueued_at, transmission_status"
            + " FROM ssb.transmission_queue ORDER BY transmission_order LIMIT ?";

    /** Messages waiting with a status (all of them: the portable schema sets one for a disabled queue). */
    static final String STUCK_COUNT = "SELECT COUNT(*) FROM ssb.transmission_queue WHERE transmission_status <> ''";

    /** The failed delivery counted last on a queue. Parameter: queue. */
    static final String LAST_FAILED_DELIVERY = "SELECT conversation_handle, message_sequence_number, attempts,"
            + " last_error, last_attempt_at FROM ssb.delivery_attempt WHERE queue_name = ?"
            + " ORDER BY last_attempt_at DESC LIMIT 1";

    /** Allows RECEIVE on a queue again. Parameter: queue. */
    static final String ENABLE_QUEUE = "UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = ?";
}
