package org.ssbjca.management;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.brokers.ReadingConnections;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.support.AdapterLog;

/**
 * Runs one piece of operator work on a connection of its own to an activation's broker database, in a transaction
 * of its own that commits before the call returns, and closes the connection; readings run on the database's kept
 * reading connections instead ({@link #read}). Readers and application connections
 * are never borrowed. Failures reach the JMX client as JDK exceptions with the message only (a client cannot load
 * the adapter's or the driver's exception classes); the cause is logged.
 */
final class ShortLivedConnection {

    private static final AdapterLog LOG = AdapterLog.of(ShortLivedConnection.class);

    private ShortLivedConnection() {
    }

    /**
     * @param database the broker database
     * @param what what is done, for the error message
     * @param work the work, on a session of the connection
     * @param <T> its result
     * @return the result, once committed
     * @throws IllegalStateException if the database refuses or the work fails
     */
    static <T> T run(BrokerRegistry.Entry database, String what, Function<BrokerSession, T> work) {
        try {
            database.prepareSchema();
        } catch (SQLException e) {
            throw forClient(what, e);
        }
        try (Connection c = database.source().open()) {
            BrokerSession session = database.broker().session(c);
            boolean committed = false;
            try {
                T result = work.apply(session);
                c.commit();
                committed = true;
                return result;
            } finally {
                if (!committed) {
                    rollbackQuietly(c);
                }
                session.afterCompletion(committed);
            }
        } catch (SQLException | RuntimeException e) {
            throw forClient(what, e);
        }
    }

    /**
     * Runs a reading (it only reads) on one of the database's kept reading connections
     * ({@link BrokerRegistry.Entry#readings()}): no session is opened per reading.
     *
     * @param database the broker database
     * @param what what is read, for the error message
     * @param reading the reading
     * @param <T> its result
     * @return the result
     * @throws IllegalStateException if the database refuses or the reading fails
     */
    static <T> T read(BrokerRegistry.Entry database, String what, ReadingConnections.Reading<T> reading) {
        try {
            database.prepareSchema();
            return database.readings().read(reading);
        } catch (SQLException | RuntimeException e) {
            throw forClient(what, e);
        }
    }

    /**
     * Returns an exception any JMX client can load: IllegalArgumentException stays one (a bad argument), the rest
     * becomes an IllegalStateException; no cause is attached.
     *
     * @param what what failed
     * @param e why
     */
    static RuntimeException forClient(String what, Exception e) {
        LOG.jmxOperationFailed(e, what);
        String message = what + " failed: " + e.getMessage();
        return e instanceof IllegalArgumentException ? new IllegalArgumentException(message)
                : new IllegalStateException(message);
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            LOG.jmxRollbackFailed(e);
        }
    }
}
