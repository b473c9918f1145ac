package org.ssbjca.backend;

import java.sql.Connection;

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

    /** @return the in-process wake-up signals of this database's queues */
    QueueSignals signals();

    /** Stops background work (notification listeners). Idempotent. */
    @Override
    void close();
}
