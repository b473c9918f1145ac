package org.ssbjca.it.delayed;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.SQLException;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.app.BrokerObjects;

/** Declares the broker objects of {@code DelayedSendIT} at deployment. */
@Startup
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DelayedSetup {

    static final String REQUEST = "DelayedRequest";
    static final String CONTRACT = "DelayedContract";
    static final String INITIATOR = "DelayedInitiator";
    static final String TARGET = "DelayedTarget";
    static final String TARGET_QUEUE = "DelayedTargetQueue";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @PostConstruct
    void declare() {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            new BrokerObjects(broker.jdbcConnection())
                    .messageType(REQUEST)
                    .contract(CONTRACT, REQUEST)
                    .service(INITIATOR, "DelayedInitiatorQueue", null)
                    .service(TARGET, TARGET_QUEUE, CONTRACT);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot declare the broker objects of DelayedSendIT", e);
        }
    }
}
