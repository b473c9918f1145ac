package org.ssbjca.sample.demo;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.ssbjca.sample.echo.EchoClient;
import org.ssbjca.sample.priority.PriorityClient;
import org.ssbjca.sample.scheduler.ExecutionLog;
import org.ssbjca.sample.scheduler.TaskScheduler;
import org.ssbjca.sample.workqueue.WorkLog;
import org.ssbjca.sample.workqueue.WorkProducer;

/** Registers the {@link DemoMXBean} and the {@link ExecutionLogMXBean} while the sample is deployed. */
@Startup
@Singleton
public class DemoRegistration {

    /** The demo's JMX name. */
    public static final String NAME = "org.ssbjca.sample:type=Demo";
    /** The execution log's JMX name. */
    public static final String EXECUTION_LOG_NAME = "org.ssbjca.sample:type=ExecutionLog";

    @EJB
    private EchoClient echo;

    @EJB
    private PriorityClient priority;

    @EJB
    private TaskScheduler scheduler;

    @EJB
    private ExecutionLog executionLog;

    @EJB
    private WorkProducer producer;

    @EJB
    private WorkLog workLog;

    @PostConstruct
    void register() {
        try {
            server().registerMBean(new Demo(new Demo.Beans(echo, priority, scheduler, executionLog, producer, workLog)),
                    new ObjectName(NAME));
            server().registerMBean(new ExecutionLogView(executionLog), new ObjectName(EXECUTION_LOG_NAME));
        } catch (JMException e) {
            throw new IllegalStateException("cannot register the sample's MBeans", e);
        }
    }

    @PreDestroy
    void unregister() {
        for (String name : new String[] {NAME, EXECUTION_LOG_NAME}) {
            try {
                server().unregisterMBean(new ObjectName(name));
            } catch (JMException e) {
                // already gone
            }
        }
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }
}
