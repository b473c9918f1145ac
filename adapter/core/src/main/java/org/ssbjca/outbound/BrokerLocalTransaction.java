package org.ssbjca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.LocalTransaction;
import java.sql.SQLException;

/** A local (single-resource) transaction on one managed connection, driven by the container. */
final class BrokerLocalTransaction implements LocalTransaction {

    private final ServiceBrokerManagedConnection mc;

    BrokerLocalTransaction(ServiceBrokerManagedConnection mc) {
        this.mc = mc;
    }

    @Override
    public void begin() throws ResourceException {
        try {
            mc.localTransactionStarted();
        } catch (SQLException e) {
            throw new ResourceException("cannot begin a local transaction: " + e.getMessage(), e);
        }
        mc.fireLocalTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_STARTED);
    }

    @Override
    public void commit() throws ResourceException {
        end(true);
        mc.fireLocalTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_COMMITTED);
    }

    @Override
    public void rollback() throws ResourceException {
        end(false);
        mc.fireLocalTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK);
    }

    private void end(boolean commit) throws ResourceException {
        try {
            mc.localTransactionEnded(commit);
        } catch (SQLException e) {
            throw new ResourceException((commit ? "commit" : "rollback") + " failed: " + e.getMessage(), e);
        }
    }
}
