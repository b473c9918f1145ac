package org.ssbjca.outbound;

import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import java.io.Serializable;
import javax.naming.Reference;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** The connection factory applications look up: hands out connection handles through the container's pool. */
public class ServiceBrokerConnectionFactoryImpl implements ServiceBrokerConnectionFactory, Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    private final ServiceBrokerManagedConnectionFactory mcf;
    private final transient ConnectionManager cm;
    private Reference reference;

    /**
     * @param mcf the managed connection factory
     * @param cm the container's connection manager
     */
    public ServiceBrokerConnectionFactoryImpl(ServiceBrokerManagedConnectionFactory mcf, ConnectionManager cm) {
        this.mcf = mcf;
        this.cm = cm;
    }

    @Override
    public ServiceBrokerConnection getConnection() {
        try {
            ServiceBrokerConnection handle = (ServiceBrokerConnection) cm.allocateConnection(mcf, null);
            if (handle instanceof ConnectionHandle h) {
                h.allocatedBy(cm);
            }
            return handle;
        } catch (ResourceException e) {
            throw new BrokerException("cannot get a broker connection: " + e.getMessage(), e);
        }
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
