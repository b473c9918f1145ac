package org.ssbjca.it.jmx;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import javax.management.JMException;
import javax.management.ObjectName;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.app.BrokerObjects;

/**
 * At deployment: declares the test's broker objects (one initiator, one service and queue per test bean) and
 * registers {@link JmxItDriverMXBean}; at undeployment unregisters it.
 */
@Startup
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JmxItSetup {

    static final String REQUEST = "JmxItRequest";
    static final String CONTRACT = "JmxItContract";
    static final String INITIATOR = "JmxItInitiator";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @EJB
    private JmxItSender sender;

    @PostConstruct
    void setUp() {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            BrokerObjects objects = new BrokerObjects(broker.jdbcConnection())
                    .messageType(REQUEST)
                    .contract(CONTRACT, REQUEST)
                    .service(INITIATOR, "JmxItInitiatorQueue", null);
            for (String queue : new String[] {ConcurrencyBean.QUEUE, PauseBean.QUEUE, PriorityBean.QUEUE,
                FailingBean.QUEUE}) {
                objects.service(queue.replace("Queue", "Service"), queue, CONTRACT);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot declare the broker objects of JmxIT: " + e.getMessage(), e);
        }
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new JmxItDriver(sender),
                    new ObjectName(JmxItDriverMXBean.NAME));
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + JmxItDriverMXBean.NAME, e);
        }
    }

    @PreDestroy
    void tearDown() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(JmxItDriverMXBean.NAME));
        } catch (JMException e) {
            // already gone
        }
    }
}
