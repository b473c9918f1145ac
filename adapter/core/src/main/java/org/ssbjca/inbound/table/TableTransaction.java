package org.ssbjca.inbound.table;

import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.inbound.ReaderConnection;

/**
 * Where a table delivery's transaction begins and ends, chosen once per activation: the container's (the bean is
 * transacted, the reader's connection one XA branch of it) or the reader's own local transaction (it is not). Every
 * method runs on the reader's thread.
 */
enum TableTransaction {

    /** The container's transaction: it begins in {@code beforeDelivery} and ends in {@code afterDelivery}. */
    XA {
        @Override
        void begin(ReaderConnection connection) {
            // the container enlists the reader's resource in beforeDelivery
        }

        @Override
        Object contextKey(Object transaction) {
            return transaction;
        }

        @Override
        Exception end(boolean ok, ReaderConnection connection, MessageEndpoint endpoint) {
            if (!ok) {
                connection.setRollbackOnly(); // the container's transaction and the reader's branch
            }
            return afterDelivery(endpoint);
        }
    },

    /** The reader's local transaction, which the bean's verbs join; committed after {@code afterDelivery}. */
    LOCAL {
        @Override
        void begin(ReaderConnection connection) throws SQLException {
            connection.connection().setAutoCommit(false);
        }

        @Override
        Object contextKey(Object transaction) {
            return transaction == null ? DeliveryContext.NO_TRANSACTION : transaction;
        }

        @Override
        Exception end(boolean ok, ReaderConnection connection, MessageEndpoint endpoint) {
            Exception out = null;
            try {
                endpoint.afterDelivery();
            } catch (Exception e) {
                out = e;
            } finally {
                // also after an Error from afterDelivery: auto-commit back on would commit the taking
                out = endLocal(ok, connection, out);
            }
            return out;
        }

        private Exception endLocal(boolean commit, ReaderConnection connection, Exception failed) {
            Exception out = failed;
            try {
                if (commit) {
                    connection.commitLocal();
                } else {
                    connection.rollbackLocal();
                }
            } catch (Exception e) {
                out = TableTurn.first(e, out);
            }
            try {
                connection.connection().setAutoCommit(true);
            } catch (Exception e) {
                out = TableTurn.first(out, e);
            }
            return out;
        }
    };

    /** Returns the transaction of a bean whose listener method is, or is not, transacted. */
    static TableTransaction of(boolean transacted) {
        return transacted ? XA : LOCAL;
    }

    /** Begins it, before {@code beforeDelivery}. */
    abstract void begin(ReaderConnection connection) throws SQLException;

    /**
     * Returns the key under which the bean's verbs find the reader's session ({@link DeliveryContext#enter}).
     *
     * @param transaction the JTA transaction on the thread, or null
     */
    abstract Object contextKey(Object transaction);

    /**
     * Ends it: rolled back unless {@code ok}. How it ended is the connection's outcome
     * ({@link ReaderConnection#takeOutcome}).
     *
     * @return what ending it threw (the first failure, the others suppressed), or null
     */
    abstract Exception end(boolean ok, ReaderConnection connection, MessageEndpoint endpoint);

    private static Exception afterDelivery(MessageEndpoint endpoint) {
        try {
            endpoint.afterDelivery();
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
