package org.ssbjca.console;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/** On undeploy, the console's JMX listeners go and its event streams close: nothing of it stays in the server. */
@WebListener
public class ConsoleLifecycle implements ServletContextListener {

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        EventsResource.close();
    }
}
