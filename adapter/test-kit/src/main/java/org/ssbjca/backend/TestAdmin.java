package org.ssbjca.backend;

import java.sql.Connection;
import java.util.Map;
import java.util.UUID;
import org.ssbjca.backend.portable.PortableBroker;
import org.ssbjca.backend.portable.PortableTestAdmin;
import org.ssbjca.backend.sqlserver.SqlServerBroker;
import org.ssbjca.backend.sqlserver.SqlServerTestAdmin;

/**
 * The test kit's administration: the objects a Service Broker application declares (message types, contracts,
 * queues, services) and what a test inspects or resets, besides the two reads the adapter itself needs
 * ({@link BrokerAdmin}). Test code only (the test kit, shared by the conformance suite and the ITs);
 * never in the RAR. Runs on the connection it was made for; commits are the caller's.
 */
public interface TestAdmin extends BrokerAdmin {

    /**
     * @param broker a broker of any backend
     * @param connection an open connection of its database
     * @return the administration of that backend, on that connection
     */
    static TestAdmin of(Broker broker, Connection connection) {
        if (broker instanceof PortableBroker) {
            return new PortableTestAdmin((PortableBroker) broker, connection);
        }
        if (broker instanceof SqlServerBroker) {
            return new SqlServerTestAdmin(connection);
        }
        throw new IllegalArgumentException("no test administration for " + broker);
    }

    /**
     * CREATE MESSAGE TYPE name VALIDATION = ...; does nothing if it exists.
     *
     * @param name the message type name
     * @param validation what the broker checks in the body
     */
    void createMessageType(String name, Validation validation);

    /**
     * CREATE CONTRACT name (type SENT BY ..., ...); does nothing if it exists.
     *
     * @param name the contract name
     * @param messageTypes the message types and who may send each, in declaration order
     */
    void createContract(String name, Map<String, SentBy> messageTypes);

    /**
     * CREATE QUEUE name; does nothing if it exists. On SQL Server the queue is created with
     * {@code POISON_MESSAGE_HANDLING (STATUS = OFF)}: the adapter handles poison messages itself.
     *
     * @param name the queue name
     */
    void createQueue(String name);

    /**
     * CREATE SERVICE name ON QUEUE queue (contracts); does nothing if it exists.
     *
     * @param name the service name
     * @param queue its queue
     * @param contracts the contracts it accepts as a target (none: it can only initiate)
     */
    void createService(String name, String queue, String... contracts);

    /**
     * ALTER QUEUE name WITH STATUS = ON | OFF. A disabled queue refuses RECEIVE; messages sent to it wait in the
     * transmission queue until it is enabled again.
     *
     * @param queue the queue
     * @param enabled the new status
     */
    void setQueueEnabled(String queue, boolean enabled);

    /**
     * @param handle a conversation handle
     * @return its endpoint state code (SO, CO, DI, DO, ER, CD), or null when the endpoint does not exist
     */
    String endpointState(UUID handle);

    /**
     * @return how many conversation endpoints exist that are not closed (SQL Server keeps closed target endpoints,
     *         state CD, for a while to guard against replays; they do not count)
     */
    long endpointCount();

    /**
     * @param handle a conversation handle
     * @return the handle of the other side of the conversation, or null if it does not exist (yet)
     */
    UUID peerHandle(UUID handle);

    /** Deletes every conversation and message (not the declared objects). */
    void purgeConversations();
}
