package org.ssbjca.adapter;

import jakarta.resource.ResourceException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;

/**
 * The XA resource of one database handed to the transaction manager for recovery: after a crash it asks for the
 * branches that were prepared but not completed, and commits or rolls them back. The transaction manager asks again
 * on every recovery scan, so the connection is kept and reused while it works, and closed with the adapter.
 */
final class RecoveryResources {

    private final BrokerRegistry.Entry entry;
    private XAConnection connection;

    RecoveryResources(BrokerRegistry.Entry entry) {
        this.entry = entry;
    }

    synchronized XAResource get() throws ResourceException {
        try {
            if (connection != null && !isValid(connection)) {
                close();
            }
            if (connection == null) {
                connection = entry.source().openXa();
            }
            return entry.broker().xaResource(connection.getXAResource());
        } catch (SQLException e) {
            close();
            throw new ResourceException("cannot open a recovery connection to " + entry.source().config() + ": "
                    + e.getMessage(), e);
        }
    }

    synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // the connection is being discarded
            }
            connection = null;
        }
    }

    private static boolean isValid(XAConnection xa) {
        try (Connection c = xa.getConnection()) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }
}
