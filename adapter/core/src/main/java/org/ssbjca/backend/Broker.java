package org.ssbjca.backend;

import java.sql.Connection;
import javax.transaction.xa.XAResource;

/**
 * One broker database, seen through one backend. The only place SQL lives: every statement the adapter sends is
 * built by an implementation of this interface (and its sessions), one implementation per backend.
 *
 * <p>A broker is shared by every connection and reader that uses the same {@link DatabaseConfig}; it holds no
 * connection itself except, for PostgreSQL, the one that listens for notifications.
 */
public interface Broker extends AutoCloseable {

    /** @return which backend this is */
    BackendKind kind();

    /** @return where the database is */
    DatabaseConfig config();

    /**
     * Binds the Service Broker verbs to a connection. The session does not own the connection, commit or close it;
     * whoever owns the transaction calls {@link BrokerSession#afterCompletion(boolean)} when it ends.
     *
     * @param connection an open connection, in a transaction (auto-commit off, or enlisted in XA)
     * @return the session
     */
    BrokerSession session(Connection connection);

    /**
     * @param connection an open connection
     * @return the administrative statements (create queues, services, ...), on that connection
     */
    BrokerAdmin admin(Connection connection);

    /**
     * @param connection an open connection
     * @return the adapter's bookkeeping (failed deliveries, dead letters, priorities), on that connection
     */
    DeliveryLedger ledger(Connection connection);

    /**
     * Adapts the driver's XA resource where the backend needs it. SQL Server starts every branch tightly coupled, so
     * that the inbound reader's branch (which holds the conversation group lock its RECEIVE took) and the branch of
     * an outbound connection that replies on the same conversation in the same global transaction share their locks
     * instead of deadlocking.
     *
     * @param driverResource the XA resource of a connection of this database
     * @return the resource to enlist
     */
    default XAResource xaResource(XAResource driverResource) {
        return driverResource;
    }

    /** @return the in-process wake-up signals of this database's queues */
    QueueSignals signals();

    /** Stops background work (notification listeners). Idempotent. */
    @Override
    void close();
}
