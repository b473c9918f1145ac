package org.ssbjca.backend.portable;

/**
 * The statements only the test kit runs on the portable schema ({@link PortableTestAdmin}): declaring objects, which
 * are rows here, enabling a queue, and reads and resets for tests. The adapter's own statements are in
 * {@link PortableSql}. Names are bound as parameters, as there.
 */
final class PortableKitSql {

    static final String INSERT_MESSAGE_TYPE =
            "INSERT INTO ssb.message_type (message_type_name, validation) VALUES (?, ?)";
    static final String INSERT_CONTRACT = "INSERT INTO ssb.contract (contract_name) VALUES (?)";
    static final String INSERT_CONTRACT_MESSAGE_TYPE =
            "INSERT INTO ssb.contract_message_type (contract_name, message_type_name, sent_by) VALUES (?, ?, ?)";
    static final String QUEUE_EXISTS = "SELECT 1 FROM ssb.service_queue WHERE queue_name = ?";
    static final String INSERT_QUEUE = "INSERT INTO ssb.service_queue (queue_name) VALUES (?)";
    static final String SERVICE_EXISTS = "SELECT 1 FROM ssb.service WHERE service_name = ?";
    static final String INSERT_SERVICE = "INSERT INTO ssb.service (service_name, queue_name) VALUES (?, ?)";
    static final String INSERT_SERVICE_CONTRACT =
            "INSERT INTO ssb.service_contract (service_name, contract_name) VALUES (?, ?)";
    static final String SET_QUEUE_ENABLED =
            "UPDATE ssb.service_queue SET is_receive_enabled = ? WHERE queue_name = ?";
    static final String ENDPOINT_STATE = "SELECT state FROM ssb.conversation_endpoint WHERE conversation_handle = ?";
    static final String ENDPOINT_COUNT = "SELECT COUNT(*) FROM ssb.conversation_endpoint";
    static final String PEER_HANDLE = "SELECT p.conversation_handle FROM ssb.conversation_endpoint e"
            + " JOIN ssb.conversation_endpoint p ON p.conversation_id = e.conversation_id"
            + " AND p.is_initiator <> e.is_initiator WHERE e.conversation_handle = ?";
    static final String[] PURGE = {
        "DELETE FROM ssb.message", "DELETE FROM ssb.transmission_queue", "DELETE FROM ssb.conversation_priority",
        "DELETE FROM ssb.conversation_endpoint", "DELETE FROM ssb.conversation_group",
        "DELETE FROM ssb.delivery_attempt", "DELETE FROM ssb.dead_letter"
    };

    private PortableKitSql() {
    }
}
