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

/** Registers the {@link DemoMXBean} while the sample is deployed. */
@Startup
@Singleton
public class DemoRegistration {

    /** The demo's JMX name. */
    public static final String NAME = "org.ssbjca.sample:type=Demo";

    @EJB
    private EchoClient echo;

    @PostConstruct
    void register() {
        try {
            server().registerMBean(new Demo(echo), new ObjectName(NAME));
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + NAME, e);
        }
    }

    @PreDestroy
    void unregister() {
        try {
            server().unregisterMBean(new ObjectName(NAME));
        } catch (JMException e) {
            // already gone
        }
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }
}
