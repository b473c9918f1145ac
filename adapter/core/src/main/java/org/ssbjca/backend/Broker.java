package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.SQLException;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableQueue;
import org.ssbjca.support.ConnectionLossXAResource;

/**
 * One broker database, seen through one backend. The only place SQL lives: every statement the adapter sends is
 * built by an implementation of this interface (and its sessions), one implementation per backend.
 *
 * <p>A broker is shared by every connection and reader that uses the same {@link DatabaseConfig}; it holds no
 * connection itself except, for PostgreSQL, the one that listens for notifications.
 */
public interface Broker extends AutoCloseable {

    /** Returns which backend this is. */
    BackendKind kind();

    /** Returns where the database is. */
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
     * Returns the administrative statements (create queues, services, ...), on that connection.
     *
     * @param connection an open connection
     */
    BrokerAdmin admin(Connection connection);

    /**
     * Returns the adapter's bookkeeping (failed deliveries, dead letters, priorities), on that connection.
     *
     * @param connection an open connection
     */
    DeliveryLedger ledger(Connection connection);

    /**
     * Returns the broker doctor's reads and its repair ({@link BrokerDoctor}), on that connection.
     *
     * @param connection an open connection
     */
    BrokerDoctor doctor(Connection connection);

    /** Returns the broker id this adapter saw first on this database, for {@link BrokerDoctor#requireBrokerReady}. */
    BrokerIdentity identity();

    /**
     * Returns the queue bound to this backend's SQL.
     *
     * @param table a work queue on an application's table, resolved against this database's catalog
     */
    TableQueue tableQueue(TableDefinition.Resolved table);

    /**
     * The XA resource to enlist for a connection of this database: the driver's, reporting a lost connection as
     * {@code XAER_RMFAIL} (see {@link ConnectionLossXAResource}: with the {@code XAER_RMERR} some drivers report, the
     * transaction manager would record a prepared branch as a heuristic hazard instead of completing it at
     * recovery). Backends that must change how branches start override this (SQL Server: tightly coupled).
     *
     * @param driverResource the XA resource of a connection of this database
     * @return the resource to enlist; {@code driverResource} itself if it is already one
     */
    default XAResource xaResource(XAResource driverResource) {
        return driverResource instanceof ConnectionLossXAResource ? driverResource
                : new ConnectionLossXAResource(driverResource, this::connectionLost);
    }

    /**
     * Returns whether it means the connection was lost or the server ended the session: SQL state class 08 (connection
     * exception), and whatever else the backend knows to mean that.
     *
     * @param e an error from this database
     */
    default boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("08");
    }

    /**
     * Readies the database before this adapter first uses it: creates the adapter's objects where the backend may
     * and {@code create} asks for it (the portable backends; SQL Server's are installed by its DBA), then checks that
     * they are at the {@link SchemaVersion#CURRENT} version.
     *
     * @param connection a connection (with DDL rights if objects are to be created); committed by this method
     * @param create whether to create the objects when they are missing
     * @throws SQLException if a statement fails, or the objects are missing or of another version: the message says
     *         which script to run
     */
    void prepareSchema(Connection connection, boolean create) throws SQLException;

    /**
     * What the database's server can do ({@link Platform}): read from the server once, on the first call that reaches
     * it (SQL Server: {@code SERVERPROPERTY('EngineEdition')}), then remembered; the portable backends can do
     * everything.
     *
     * @return the platform
     * @throws SQLException if the server cannot be asked (it is down): the next call asks again
     */
    default Platform platform() throws SQLException {
        return Platform.COMPLETE;
    }

    /** Returns the in-process wake-up signals of this database's queues. */
    QueueSignals signals();

    /** Stops background work (notification listeners). Idempotent. */
    @Override
    void close();
}
