package org.ssbjca.it.outbound;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.JMSDestinationDefinition;
import java.sql.SQLException;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.app.BrokerObjects;

/** Declares the broker objects of {@code OutboundXaIT} at deployment, and its JMS queue. */
@Startup
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
@JMSDestinationDefinition(name = OutboundItSetup.JMS_QUEUE, interfaceName = "jakarta.jms.Queue",
        destinationName = "OutboundXaIT")
public class OutboundItSetup {

    static final String JMS_QUEUE = "java:app/jms/OutboundXaIT";
    static final String REQUEST = "OutboundRequest";
    static final String CONTRACT = "OutboundContract";
    static final String INITIATOR = "OutboundInitiator";
    static final String TARGET = "OutboundTarget";
    static final String TARGET_QUEUE = "OutboundTargetQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @PostConstruct
    void declare() {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            new BrokerObjects(broker.jdbcConnection())
                    .messageType(REQUEST)
                    .contract(CONTRACT, REQUEST)
                    .service(INITIATOR, "OutboundInitiatorQueue", null)
                    .service(TARGET, TARGET_QUEUE, CONTRACT);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot declare the broker objects of OutboundXaIT", e);
        }
    }
}
