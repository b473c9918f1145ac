package org.ssbjca.brokers;

import jakarta.resource.ResourceException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of one database handed to the transaction manager for recovery: after a crash, or after the
 * database came back from an outage that cut a commit short, it asks for the branches that were prepared but not
 * completed, and commits or rolls them back. The transaction manager may keep the resource it got and use it much
 * later, so {@link #resource()} hands out one that finds a working connection at every call (reopening it when the
 * database restarted meanwhile); the connection is kept while it works, and closed with the adapter.
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

    /** Returns an XA resource that reaches the database through a working connection at each call. */
    XAResource resource() {
        return new Reconnecting();
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

    /** Passes each call to the XA resource of the connection that works at that moment. */
    private final class Reconnecting implements XAResource {

        private XAResource current() throws XAException {
            try {
                return get();
            } catch (ResourceException e) {
                XAException x = new XAException(XAException.XAER_RMFAIL);
                x.initCause(e);
                throw x;
            }
        }

        @Override
        public Xid[] recover(int flag) throws XAException {
            return current().recover(flag);
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            current().commit(xid, onePhase);
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            current().rollback(xid);
        }

        @Override
        public void forget(Xid xid) throws XAException {
            current().forget(xid);
        }

        @Override
        public void start(Xid xid, int flags) throws XAException {
            current().start(xid, flags);
        }

        @Override
        public void end(Xid xid, int flags) throws XAException {
            current().end(xid, flags);
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            return current().prepare(xid);
        }

        @Override
        public boolean isSameRM(XAResource other) throws XAException {
            return other == this || current().isSameRM(other);
        }

        @Override
        public int getTransactionTimeout() throws XAException {
            return current().getTransactionTimeout();
        }

        @Override
        public boolean setTransactionTimeout(int seconds) throws XAException {
            return current().setTransactionTimeout(seconds);
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
