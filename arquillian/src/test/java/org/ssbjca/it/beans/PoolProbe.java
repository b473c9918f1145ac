package org.ssbjca.it.beans;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /pool?body=...}: one call through the outbound connection factory ({@link PoolProbeBean#send}). Answers
 * 200 and {@code ok}, or 500 and the failure, so that a client-side test can call it while it stops and starts the
 * database.
 */
@WebServlet("/pool")
public class PoolProbe extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private PoolProbeBean bean;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        try {
            bean.send(req.getParameter("body"));
            resp.getWriter().print("ok");
        } catch (RuntimeException e) {
            resp.setStatus(500);
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            resp.getWriter().print(e.getClass().getSimpleName() + ": " + root);
        }
    }
}
