package org.ssbjca.console;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * On deploy, the charts' sampler starts on the server's default managed scheduled executor; on undeploy it stops, the
 * console's JMX listeners go and its event streams close: nothing of it stays in the server.
 */
@WebListener
public class ConsoleLifecycle implements ServletContextListener {

    /** The Jakarta EE default managed scheduled executor, which every Jakarta EE server provides. */
    @Resource
    private ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> sampling;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        if (scheduler == null) {
            ConsoleLog.noScheduler();
            return;
        }
        AdapterBeans beans = new AdapterBeans();
        Sampler sampler = new Sampler(new Sampler.Source() {
            @Override
            public List<String> names() {
                return beans.activationNames();
            }

            @Override
            public Object[] values(String activation, String[] attributes) {
                return beans.values(activation, attributes);
            }
        }, Clock.systemUTC(), HistoryResource.HISTORIES);
        sampling = scheduler.scheduleWithFixedDelay(sampler, 0, Histories.PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (sampling != null) {
            sampling.cancel(false);
        }
        EventsResource.close();
    }
}
