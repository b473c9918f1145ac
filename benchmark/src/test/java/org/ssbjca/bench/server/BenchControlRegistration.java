package org.ssbjca.bench.server;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.transaction.TransactionManager;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/** Registers the benchmark's control MXBean while the control jar is deployed. */
@Startup
@Singleton
public class BenchControlRegistration {

    @EJB
    private SsbSender ssb;

    @EJB
    private ArtemisSender artemis;

    @EJB
    private ContainerTaker taker;

    @Resource(lookup = "java:/TransactionManager")
    private TransactionManager tm;

    @PostConstruct
    void register() {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new BenchControl(ssb, artemis, tm, taker),
                    new ObjectName(BenchControlMXBean.NAME));
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + BenchControlMXBean.NAME, e);
        }
    }

    @PreDestroy
    void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(BenchControlMXBean.NAME));
        } catch (JMException e) {
            // already gone
        }
    }
}
