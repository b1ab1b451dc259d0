help explain
