int blueproof_system_placeholder(void);
